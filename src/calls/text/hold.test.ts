import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fencedCalls } from "./fenced.js";
import { hermesCalls } from "./hermes.js";
import { textHold, withoutSpans } from "./hold.js";

/** Streams `chunks` through a hold; what was shown as they came, and what the end adds. */
function stream(chunks: string[], spansOf: (text: string) => Array<readonly [number, number]> = () => []) {
  const hold = textHold();
  const live = chunks.map((c) => hold.push(c));
  const text = chunks.join("");
  return { live, end: hold.end(text, spansOf(text)) };
}

const hermesSpans = (text: string) => hermesCalls(text).map((f) => [f.start, f.end] as const);

describe("text hold", () => {
  it("prose streams as it comes, and a fence in another language too", () => {
    assert.deepEqual(stream(["Hello ", "world."]), { live: ["Hello ", "world."], end: "" });
    const code = stream(["See:\n```py", "thon\nprint(1)\n```\n", "Done."]);
    assert.equal(code.live.join(""), "See:\n```python\nprint(1)\n```\nDone.");
    assert.equal(code.end, "");
  });

  it("a call token split across chunks is never shown; the prose before it is, at once", () => {
    const { live, end } = stream(
      ["I'll read it.\n<tool", '_call>{"name": "read", "arguments": {"path": "a"}}</tool_call>'],
      hermesSpans,
    );
    assert.deepEqual(live, ["I'll read it.\n", ""]);
    assert.equal(end, "");
  });

  it("what follows a call is shown at the end, without the call", () => {
    const text = ['<tool_call>{"name": "read", "arguments": {}}</tool_call>', "\nthen more"];
    assert.deepEqual(stream(text, hermesSpans), { live: ["", ""], end: "\nthen more" });
  });

  it("a JSON fence or an answer opening as JSON is held, and shown whole when it was no call", () => {
    const fence = stream(["Example:\n```json\n", '{"a": 1}\n', "```", "\nmore prose"], () => []);
    assert.deepEqual(fence.live.slice(0, 2), ["Example:\n", ""], "held while open");
    assert.match(fence.live[2] ?? "", /^```json\n\{"a": 1\}\n/, "shown once closed, before the answer ends");
    assert.equal(fence.live.join(""), 'Example:\n```json\n{"a": 1}\n```\nmore prose');
    assert.equal(fence.end, "");
    const call = stream(["Now:\n```json\n", '{"name": "read", "arguments": {"path": "a"}}\n```', "\nafter"], (t) =>
      fencedCalls(t).map((f) => [f.start, f.end] as const),
    );
    assert.deepEqual(call.live, ["Now:\n", "", ""], "a fence that holds a call is never shown");
    assert.equal(call.end.trim(), "after");
    assert.deepEqual(stream(['{"name"', ": 1}"]), { live: ["", ""], end: '{"name": 1}' });
  });

  it("withoutSpans takes out the spans, in any order, overlapping or not", () => {
    assert.equal(
      withoutSpans("a[x]b[y]c", [
        [5, 8],
        [1, 4],
      ]),
      "abc",
    );
    assert.equal(withoutSpans("abcdef", [[1, 3]], 2), "def");
  });
});
