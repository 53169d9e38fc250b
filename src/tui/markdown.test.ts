import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { markdownLines, type Segment } from "./markdown.js";

/** A line as text, with marks: *bold*, _italic_, `code`, ~strike~, (dim). */
const show = (lines: Segment[][]) =>
  lines.map((line) =>
    line
      .map((s) => {
        let t = s.text;
        if (s.code) t = `\`${t}\``;
        if (s.bold) t = `*${t}*`;
        if (s.italic) t = `_${t}_`;
        if (s.strike) t = `~${t}~`;
        if (s.dim) t = `(${t})`;
        return t;
      })
      .join(""),
  );

describe("terminal markdown", () => {
  it("draws headings, strong, emphasis, code and links", () => {
    assert.deepEqual(
      show(markdownLines("# Plan\n\nSome **bold**, *soft* and `npm test`; see [docs](https://x.dev).")),
      ["*Plan*", "", "Some *bold*, _soft_ and `npm test`; see docs( (https://x.dev))."],
    );
  });

  it("numbers ordered lists, bullets the others, nests, and marks tasks", () => {
    assert.deepEqual(show(markdownLines("1. first\n2. second\n   - inner\n\n- [x] done\n- [ ] open")), [
      "1. first",
      "2. second",
      "   • inner",
      "",
      "• [x] done",
      "• [ ] open",
    ]);
  });

  it("keeps code blocks verbatim, and an open fence mid-stream runs to the end", () => {
    assert.deepEqual(show(markdownLines("Run:\n\n```sh\nnpm test -- --grep **x**\n```\n")), [
      "Run:",
      "",
      "(sh)",
      "`  npm test -- --grep **x**`",
    ]);
    assert.deepEqual(show(markdownLines("```ts\nconst a = 1;")), ["(ts)", "`  const a = 1;`"]);
  });

  it("shows quotes, rules and tables readably, and entities as their characters", () => {
    assert.deepEqual(show(markdownLines("> careful & slow\n\n---\n\n| a | b |\n|---|---|\n| 1 | 2 |")), [
      "(│ )(careful & slow)",
      "",
      "(────────)",
      "",
      "*a*( │ )*b*",
      "1( │ )2",
    ]);
  });

  it("keeps line breaks inside a paragraph and never drops text", () => {
    assert.deepEqual(show(markdownLines("one\ntwo  \nthree <b>x</b>")), ["one", "two", "three <b>x</b>"]);
    assert.deepEqual(show(markdownLines("")), [""]);
  });
});
