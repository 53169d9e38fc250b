import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyEvent, callOutcome, finishedPrefix, progressText } from "./events.js";
import type { TranscriptItem } from "./transcript.js";

describe("a running turn's transcript", () => {
  it("keeps no control character of the model's words, a call's input or a result's summary (lines stay)", () => {
    const esc = String.fromCharCode(27);
    let items: TranscriptItem[] = [];
    items = applyEvent(items, { type: "text", text: `hi ${esc}]52;c;eA==\u0007\nthere` });
    items = applyEvent(items, { type: "tool_call", id: "c1", name: `read${esc}[2J`, input: { path: `a${esc}[8m.ts` } });
    items = applyEvent(items, {
      type: "tool_result",
      id: "c1",
      name: "read",
      summary: `read ${esc}[2J`,
      isError: false,
    });
    const shown = JSON.stringify(items);
    assert.ok(!shown.includes("\\u001b") && !shown.includes("\\u0007"), shown);
    assert.match(shown, /hi {2}\]52;c;eA== \\nthere/);
  });
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

  it("marks a call whose approval the person answered (its diff was in the dialog), not one allowed by rules", () => {
    let items: TranscriptItem[] = [];
    items = applyEvent(items, { type: "tool_call", id: "e1", name: "edit", input: { path: "a.ts" } });
    items = applyEvent(items, { type: "tool_call", id: "e2", name: "edit", input: { path: "b.ts" } });
    const decision = (call: string, seat: string, holder: string) =>
      ({
        type: "decision",
        decision: {
          seat,
          holder,
          answer: "allow",
          reasons: [],
          subject: { step: 1, call },
          seq: 1,
          at: "2026-01-01T00:00:00Z",
        },
      }) as Parameters<typeof applyEvent>[1];
    items = applyEvent(items, decision("e1", "call.permission", "config"));
    items = applyEvent(items, decision("e1", "call.approval", "person"));
    items = applyEvent(items, decision("e2", "call.approval", "code"));
    assert.deepEqual(
      items.map((item) => item.kind === "tool" && item.asked === true),
      [true, false],
    );
  });
});

describe("what became of a call", () => {
  it("is the summary without the call: after its arrow, in its brackets, after the tool's name", () => {
    assert.equal(callOutcome("shell", "shell `npm test` → exit 0 (1.2s)"), "exit 0 (1.2s)");
    assert.equal(callOutcome("glob", "glob a → b in src → 2 files"), "2 files");
    assert.equal(callOutcome("read", "read src/a.ts (lines 1-20 of 90)"), "lines 1-20 of 90");
    assert.equal(callOutcome("edit", "edit: denied (nobody to approve)"), "denied (nobody to approve)");
    assert.equal(callOutcome("read", "read a.ts"), undefined, "nothing beyond the call");
    assert.equal(callOutcome("mcp_x", "server/x failed"), "server/x failed");
    assert.equal(callOutcome("read", undefined), undefined);
    assert.equal(callOutcome("task", "task build: done in 2 step(s)"), "done in 2 step(s)");
    assert.equal(callOutcome("task", "task plan: cancelled"), "cancelled");
    assert.equal(callOutcome("task", "task: not started"), "not started");
  });
});

describe("a call's progress", () => {
  it("shows the latest report on its running line, and nothing after its result", () => {
    let items: TranscriptItem[] = [{ kind: "user", text: "go" }];
    items = applyEvent(items, { type: "tool_call", id: "c1", name: "mcp__s__long", input: {} });
    items = applyEvent(items, { type: "tool_progress", id: "c1", name: "mcp__s__long", progress: 1, total: 4 });
    items = applyEvent(items, {
      type: "tool_progress",
      id: "c1",
      name: "mcp__s__long",
      progress: 2,
      total: 4,
      message: "indexing",
    });
    assert.equal((items[1] as { progress?: string }).progress, "2/4 · indexing");
    items = applyEvent(items, { type: "tool_result", id: "c1", name: "mcp__s__long", summary: "ok", isError: false });
    const after = applyEvent(items, { type: "tool_progress", id: "c1", name: "mcp__s__long", progress: 3 });
    assert.equal(after, items, "a late report changes nothing");
  });

  it("says the count alone without a total or message", () => {
    assert.equal(progressText({ progress: 3 }), "3");
    assert.equal(progressText({ progress: 3, message: "working" }), "3 · working");
  });
});
