import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RecordedDecision } from "../contracts/decisions.js";
import { journalEvents } from "../session/journal.js";
import { replayUpdates } from "./replay.js";
import { turnUpdates } from "./updates.js";

const decision = (seat: string, answer: string, call: string) =>
  ({ seat, holder: "person", answer, reasons: [], subject: { call }, seq: 1, at: "" }) as unknown as RecordedDecision;

describe("acp updates", () => {
  it("streams a turn: text chunks, a call with its diff, the person's allow as running, its end, the plan", () => {
    const updates = turnUpdates("/w", (path) => (path === "a.txt" ? "old\n" : null));
    const all = [
      ...updates.of({ type: "text", text: "On it." }),
      ...updates.of({ type: "model_wait", waiting: true }),
      ...updates.of({ type: "tool_call", id: "c1", name: "write", input: { path: "a.txt", content: "new\n" } }),
      ...updates.of({ type: "decision", decision: decision("call.approval", "allow-once", "c1") }),
      ...updates.of({ type: "tool_result", id: "c1", name: "write", summary: "write a.txt", isError: false }),
      ...updates.of({
        type: "tool_call",
        id: "t1",
        name: "todo",
        input: { items: [{ content: "x", status: "done" }] },
      }),
      ...updates.of({ type: "tool_result", id: "t1", name: "todo", summary: "todo (1 of 1 done)", isError: false }),
    ];
    assert.deepEqual(
      all.map((u) => u.sessionUpdate),
      [
        "agent_message_chunk",
        "tool_call",
        "tool_call_update",
        "tool_call_update",
        "tool_call",
        "tool_call_update",
        "plan",
      ],
    );
    const call = all[1];
    assert.ok(call?.sessionUpdate === "tool_call");
    assert.deepEqual(call.content, [{ type: "diff", path: "/w/a.txt", oldText: "old\n", newText: "new\n" }]);
    assert.deepEqual(
      all.filter((u) => u.sessionUpdate === "tool_call_update").map((u) => u.status),
      ["in_progress", "completed", "completed"],
    );
    const plan = all.at(-1);
    assert.ok(plan?.sessionUpdate === "plan");
    assert.deepEqual(plan.entries, [{ content: "x", priority: "medium", status: "completed" }]);
  });

  it("shows no plan for a todo call that was refused, and no running for a deny", () => {
    const updates = turnUpdates("/w", () => null);
    updates.of({ type: "tool_call", id: "t1", name: "todo", input: { items: [] } });
    assert.deepEqual(updates.of({ type: "decision", decision: decision("call.approval", "deny", "t1") }), []);
    const ended = updates.of({ type: "tool_result", id: "t1", name: "todo", summary: "denied", isError: true });
    assert.deepEqual(
      ended.map((u) => u.sessionUpdate),
      ["tool_call_update"],
    );
  });

  it("replays a session's history: messages, calls and their ends, plans, a call cut off", () => {
    let seq = 0;
    const event = (type: string, data: unknown) => ({ sessionId: "S", seq: ++seq, type, data, at: 0 });
    const assistant = (text: string, toolCalls: unknown[]) =>
      event("message.assistant", { text, toolCalls, finish: "stop", model: "m", step: 1, status: "complete" });
    const updates = replayUpdates(
      journalEvents([
        event("message.user", { text: "write it" }),
        assistant("Writing.", [
          { id: "c1", name: "write", input: { path: "a.txt", content: "x" } },
          { id: "c2", name: "todo", input: { items: [{ content: "a", status: "pending" }] } },
        ]),
        event("call.finished", { id: "c1", name: "write", output: "ok", isError: false, summary: "write a.txt" }),
        event("call.finished", { id: "c2", name: "todo", output: "ok", isError: false, summary: "todo" }),
        assistant("", [{ id: "c3", name: "shell", input: { command: "sleep 100" } }]),
        event("call.interrupted", { id: "c3", name: "shell" }),
        event("message.user", { text: "and then?" }),
        assistant("Done.", []),
      ]),
      "/w",
    );
    assert.deepEqual(
      updates.map((u) => u.sessionUpdate),
      [
        "user_message_chunk",
        "agent_message_chunk",
        "tool_call",
        "tool_call",
        "tool_call_update",
        "tool_call_update",
        "plan",
        "tool_call",
        "tool_call_update",
        "user_message_chunk",
        "agent_message_chunk",
      ],
    );
    const cut = updates[8];
    assert.ok(cut?.sessionUpdate === "tool_call_update");
    assert.equal(cut.status, "failed");
    // A replayed write shows no diff: what the file held before is not known (it has moved on since).
    const write = updates[2];
    assert.ok(write?.sessionUpdate === "tool_call");
    assert.equal(write.content, undefined);
    assert.deepEqual(write.locations, [{ path: "/w/a.txt" }]);
  });
});
