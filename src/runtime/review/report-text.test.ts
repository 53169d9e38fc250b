import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reportText } from "./report-text.js";

describe("review report text", () => {
  it("a finding's escape sequences are shown as text, never sent to the terminal", () => {
    const text = reportText({
      status: "findings",
      exitCode: 1,
      diff: { what: "HEAD..work tree", truncated: false },
      failOn: "high",
      checks: [],
      findings: [{ file: "a\u001b]0;owned\u0007.js", line: 3, severity: "high", text: "bad\u001b[2Jthing" }],
    });
    assert.ok(!text.includes("\u001b") && !text.includes("\u0007"), text);
    assert.match(text, /HIGH a ]0;owned .js:3: bad \[2Jthing/);
    assert.match(text, /1 findings, 1 at high or above/);
  });
});
