import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { colorOn, outputWidth } from "./terminal.js";
import { shorten, textWidth, wrapWords } from "./wrap.js";

const TEXT =
  "approved in advance: --auto allows shell this once (nobody saw this call) and the reason goes on for a while";

describe("wrapWords", () => {
  it("breaks between words, each line within the width, the words kept whole and in order", () => {
    for (const width of [10, 17, 40, 80]) {
      const lines = wrapWords(TEXT, width);
      for (const line of lines) assert.ok(textWidth(line) <= width, `${width}: "${line}"`);
      assert.equal(lines.join(" "), TEXT, `width ${width}: no word cut or lost`);
    }
    assert.deepEqual(wrapWords("one two three", 8), ["one two", "three"]);
  });

  it("splits only a word longer than the whole width, at the width", () => {
    assert.deepEqual(wrapWords("a /very/long/path/name b", 6), ["a", "/very/", "long/p", "ath/na", "me b"]);
  });

  it("makes runs of white space one space and returns one empty line for no text", () => {
    assert.deepEqual(wrapWords("a\n\n  b", 10), ["a b"]);
    assert.deepEqual(wrapWords("", 10), [""]);
  });
});

describe("shorten", () => {
  it("keeps whole words and marks what was left out", () => {
    assert.equal(shorten("node test.js fails. Find the bug", 20), "node test.js fails.…");
    assert.equal(shorten("short", 20), "short");
    assert.equal(shorten("averyveryverylongword", 8), "averyve…");
    for (const width of [5, 12, 30]) assert.ok(textWidth(shorten(TEXT, width)) <= width);
  });
});

describe("outputWidth and colorOn", () => {
  it("take a terminal's columns; else COLUMNS; else 80", () => {
    assert.equal(outputWidth({ isTTY: true, columns: 132 }, { COLUMNS: "90" }), 132);
    assert.equal(outputWidth({ isTTY: false }, { COLUMNS: "90" }), 90);
    assert.equal(outputWidth({}, { COLUMNS: "wide" }), 80);
    assert.equal(outputWidth({}, {}), 80);
  });

  it("colour a terminal only, never with NO_COLOR, and when FORCE_COLOR asks even when piped", () => {
    assert.equal(colorOn({ isTTY: true }, {}), true);
    assert.equal(colorOn({ isTTY: false }, {}), false);
    assert.equal(colorOn({ isTTY: true }, { NO_COLOR: "1" }), false);
    assert.equal(colorOn({ isTTY: false }, { FORCE_COLOR: "1" }), true);
    assert.equal(colorOn({ isTTY: true }, { FORCE_COLOR: "0" }), false);
    assert.equal(colorOn({ isTTY: false }, { FORCE_COLOR: "1", NO_COLOR: "1" }), false);
  });
});
