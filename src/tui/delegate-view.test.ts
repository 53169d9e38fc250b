import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DelegateEvent, RunEvent } from "../loop/turn.js";
import { currentCall, MAX_DELEGATE_CALLS } from "./delegate-view.js";
import { applyEvent, finishedPrefix } from "./events.js";
import type { TranscriptItem } from "./transcript.js";

type Tool = Extract<TranscriptItem, { kind: "tool" }>;

/** A delegate event of the build delegate started by the parent's call t1 (task s-child). */
const of = (state: DelegateEvent["state"], event?: RunEvent): DelegateEvent => ({
  type: "delegate",
  call: "t1",
  task_id: "s-child",
  agent: "build",
  description: "make x",
  state,
  ...(event ? { event } : {}),
});
/** The same, one level down: the build delegate's own task call k1 started a plan delegate. */
const nested = (state: DelegateEvent["state"], event?: RunEvent): DelegateEvent =>
  of("event", {
    type: "delegate",
    call: "k1",
    task_id: "s-grandchild",
    agent: "plan",
    state,
    ...(event ? { event } : {}),
  });
const call = (id: string, name: string, input: unknown): RunEvent => ({ type: "tool_call", id, name, input });
const result = (id: string, name: string, summary: string, isError = false): RunEvent => ({
  type: "tool_result",
  id,
  name,
  summary,
  isError,
});

const start = (): TranscriptItem[] =>
  applyEvent([{ kind: "user", text: "go" }], call("t1", "task", { agent: "build", prompt: "make x" }));
const taskItem = (items: TranscriptItem[]) => items.find((i): i is Tool => i.kind === "tool" && i.id === "t1");

describe("a delegate in the transcript", () => {
  it("lives under its task call: waiting, running, its calls counted, the current one named, then done", () => {
    let items = start();
    items = applyEvent(items, of("waiting"));
    assert.equal(taskItem(items)?.delegate?.state, "waiting");
    assert.equal(taskItem(items)?.delegate?.description, "make x");
    items = applyEvent(items, of("running"));
    items = applyEvent(items, of("event", call("c1", "read", { path: "a.ts" })));
    items = applyEvent(items, of("event", result("c1", "read", "read a.ts (3 lines)")));
    items = applyEvent(items, of("event", call("c2", "shell", { command: "touch x.txt" })));
    let view = taskItem(items)?.delegate;
    assert.equal(view?.state, "running");
    assert.equal(view?.count, 2);
    assert.equal(view && currentCall(view)?.title, "shell touch x.txt");
    assert.deepEqual(
      view?.calls.map((c) => [c.title, c.status, c.summary]),
      [
        ["read a.ts", "done", "read a.ts (3 lines)"],
        ["shell touch x.txt", "running", undefined],
      ],
    );
    items = applyEvent(items, of("event", result("c2", "shell", "shell `touch x.txt` → exit 0")));
    items = applyEvent(items, of("done"));
    items = applyEvent(items, result("t1", "task", "task build: done in 2 step(s)"));
    view = taskItem(items)?.delegate;
    assert.equal(view?.state, "done");
    assert.equal(view && currentCall(view), undefined);
    assert.equal(taskItem(items)?.status, "done");
    assert.equal(items.length, 2, "the delegate's calls are not items of the transcript");
  });

  it("nests its own delegates under its task call, one level down", () => {
    let items = applyEvent(start(), of("running"));
    items = applyEvent(items, of("event", call("k1", "task", { agent: "plan", prompt: "look" })));
    items = applyEvent(items, nested("running"));
    items = applyEvent(items, nested("event", call("g1", "grep", { pattern: "TODO" })));
    items = applyEvent(items, nested("event", result("g1", "grep", "grep TODO → 4 matches")));
    items = applyEvent(items, nested("done"));
    items = applyEvent(items, of("event", result("k1", "task", "task plan: done in 1 step(s)")));
    const view = taskItem(items)?.delegate;
    assert.equal(view?.count, 1, "the grandchild's calls are its own, not counted for the child");
    const inner = view?.calls[0]?.delegate;
    assert.equal(inner?.agent, "plan");
    assert.equal(inner?.state, "done");
    assert.deepEqual(
      inner?.calls.map((c) => [c.title, c.status]),
      [["grep TODO", "done"]],
    );
  });

  it("says how it ended: cancelled, a limit, a failure; a failed task result ends a delegate that never said", () => {
    for (const state of ["cancelled", "limit", "failed", "repeat"] as const) {
      const items = applyEvent(applyEvent(start(), of("running")), of(state));
      assert.equal(taskItem(items)?.delegate?.state, state);
    }
    // Cancelled while it waited for a slot: no last state comes, the task's result says it.
    let items = applyEvent(start(), of("waiting"));
    items = applyEvent(items, result("t1", "task", "task build: cancelled", true));
    assert.equal(taskItem(items)?.delegate?.state, "cancelled");
    items = applyEvent(applyEvent(start(), of("running")), result("t1", "task", "task: not started", true));
    assert.equal(taskItem(items)?.delegate?.state, "failed");
    // A model error of the delegate's turn is kept for its line.
    items = applyEvent(applyEvent(start(), of("running")), of("event", { type: "error", message: "model down" }));
    assert.equal(taskItem(items)?.delegate?.error, "model down");
  });

  it("keeps its line live while it runs, even after a background task's call returned", () => {
    let items = applyEvent(start(), of("running"));
    items = applyEvent(items, result("t1", "task", "task build: started in the background"));
    items = applyEvent(items, { type: "text", text: "Meanwhile" });
    assert.equal(finishedPrefix(items), 1, "the task line is still live: its delegate runs");
    items = applyEvent(items, of("done"));
    assert.equal(finishedPrefix(items), 2);
  });

  it("costs nothing for what it does not show, and keeps only its latest calls", () => {
    const items = applyEvent(start(), of("running"));
    assert.equal(applyEvent(items, of("event", { type: "text", text: "thinking" })), items, "the same list: no redraw");
    assert.equal(applyEvent(items, { ...of("running"), call: "nope" }).length, items.length);
    let many = items;
    for (let n = 0; n < MAX_DELEGATE_CALLS + 10; n++) many = applyEvent(many, of("event", call(`c${n}`, "list", {})));
    const view = taskItem(many)?.delegate;
    assert.equal(view?.count, MAX_DELEGATE_CALLS + 10);
    assert.equal(view?.calls.length, MAX_DELEGATE_CALLS);
    assert.equal(view?.calls[0]?.id, "c10");
  });
});
