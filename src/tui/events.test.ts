import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyEvent, finishedPrefix } from "./events.js";
import type { TranscriptItem } from "./transcript.js";

describe("a running turn's transcript", () => {
  it("counts as final the items nothing more will change: finished calls, and text something came after", () => {
    let items: TranscriptItem[] = [{ kind: "user", text: "go" }];
    assert.equal(finishedPrefix(items), 1);
    items = applyEvent(items, { type: "text", text: "Looking" });
    assert.equal(finishedPrefix(items), 1, "text still streaming is live");
    items = applyEvent(items, { type: "tool_call", id: "c1", name: "read", input: { path: "a.ts" } });
    assert.equal(finishedPrefix(items), 2, "the text is final once a call follows it; the running call is live");
    items = applyEvent(items, { type: "tool_call", id: "c2", name: "read", input: { path: "b.ts" } });
    items = applyEvent(items, {
      type: "tool_result",
      id: "c2",
      name: "read",
      summary: "read b.ts",
      isError: false,
    });
    assert.equal(finishedPrefix(items), 2, "a finished call after a running one waits, so the order holds");
    items = applyEvent(items, {
      type: "tool_result",
      id: "c1",
      name: "read",
      summary: "read a.ts",
      isError: false,
      detail: "1: x",
    });
    assert.equal(finishedPrefix(items), 4);
    const first = items[2];
    assert.equal(first?.kind === "tool" && first.detail, "1: x");
  });
});
