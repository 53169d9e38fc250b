import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../../test/support/random.js";
import { redactUrlPasswords } from "./secrets.js";

/** The pattern used before: right, but quadratic on a long word (each letter a new try to its end). */
const quadratic = (text: string) => text.replace(/([a-z][a-z0-9+.-]*:\/\/[^/\s:@]+):[^@\s/]*@/gi, "$1:<redacted>@");

describe("redactUrlPasswords", () => {
  it("masks the password of every URL, and nothing else", () => {
    assert.equal(
      redactUrlPasswords("see https://me:hunter2@example.com/x and git+ssh://u:p@h, not a:b@c or ://u:p@h"),
      "see https://me:<redacted>@example.com/x and git+ssh://u:<redacted>@h, not a:b@c or ://u:p@h",
    );
    assert.equal(redactUrlPasswords("HTTP://A:B@C 1x://u:p@h"), "HTTP://A:<redacted>@C 1x://u:<redacted>@h");
  });

  it("masks what the old pattern masked, on random texts", () => {
    const random = seededRandom(7);
    const parts = ["a", "Z", "1", ":", "/", "@", " ", "+", ".", "-", "h", "://", "://", "\n", "é"];
    for (let round = 0; round < 20_000; round++) {
      let text = "";
      for (let i = Math.floor(random() * 30); i > 0; i--) text += parts[Math.floor(random() * parts.length)];
      assert.equal(redactUrlPasswords(text), quadratic(text), JSON.stringify(text));
    }
  });

  it("is linear on a long value", () => {
    const started = performance.now();
    redactUrlPasswords(`${"a".repeat(5_000_000)}://u:p@h ${"x://".repeat(500_000)}`);
    // The old pattern took 2 s on 40 kB of letters: hours here.
    assert.ok(performance.now() - started < 5_000, `${Math.round(performance.now() - started)} ms`);
  });
});
