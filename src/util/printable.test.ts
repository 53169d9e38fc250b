import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hasControls, printableLine } from "./printable.js";

describe("printableLine", () => {
  it("turns every control character (escapes, bells, CR, newlines, C1, DEL) into a space; the rest stays", () => {
    const hostile = "\u001b]0;owned\u0007\u001b[2Jfake\rline\nnext\u009b31m\u007fé ✓";
    const shown = printableLine(hostile);
    assert.equal(hasControls(shown), false);
    assert.match(shown, /owned/);
    assert.match(shown, /é ✓$/);
    assert.equal(printableLine("fix the parser · 14:05"), "fix the parser · 14:05");
    assert.equal(hasControls(hostile), true);
    assert.equal(hasControls("plain"), false);
  });
});
