import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RecordedDecision } from "../../contracts/decisions.js";
import type { RunEvent } from "../../loop/turn.js";
import { STREAM_VERSION, streamShape } from "../../runtime/stream-event.js";
import { answerOf, askRequestOf, outcomeOf, runEventOf } from "./events.js";

/** An event as the server's stream carries it: its shape inside the envelope. */
function onTheWire(event: RunEvent, seq: number) {
  const shaped = streamShape(event);
  assert.ok(shaped);
  return { v: STREAM_VERSION, seq, type: shaped.type, session: "S", ...shaped.fields };
}

describe("attach: the server's stream back into run events", () => {
  it("is the inverse of the stream's shapes: decisions keep their ledger seq, text and usage come back whole", () => {
    const decision: RecordedDecision = {
      seq: 7,
      at: "2026-12-03T00:00:00.000Z",
      seat: "call.permission",
      holder: "config",
      answer: "allow",
      reasons: [{ rule: "r" }],
    };
    const events: RunEvent[] = [
      { type: "decision", decision },
      { type: "text", text: "hello" },
      { type: "usage", step: 1, model: "m", usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }, cost: 0.5 },
      { type: "error", message: "boom", class: "network" },
    ];
    for (const [n, event] of events.entries()) assert.deepEqual(runEventOf(onTheWire(event, n + 1)), event);
    for (const type of ["session", "done", "ask", "question", "gap", "warning"]) {
      assert.equal(runEventOf({ type }), undefined, type);
    }
  });

  it("a done event is the turn's outcome; an ask is the dialog's request; an answer names its option by place", () => {
    assert.deepEqual(outcomeOf({ type: "done", status: "denied", steps: 2, denied: 1, result: "r" }), {
      status: "done",
      steps: 2,
      denied: 1,
      lastText: "r",
    });
    assert.equal(outcomeOf({ type: "done", status: "error" }).status, "failed");
    const request = askRequestOf({
      type: "ask",
      ask: "a1",
      tool: "write",
      call: "c1",
      input: { path: "x" },
      requests: [{ action: "edit", resource: "/w/x", effect: "ask" }],
      always: ["always", "the folder"],
      problem: null,
      preview: "diff",
    });
    assert.deepEqual(
      request.outcomes.map((o) => [o.request.action, o.request.resource, o.effect]),
      [["edit", "/w/x", "ask"]],
    );
    assert.equal(request.preview, "diff");
    assert.equal(request.problem, undefined);
    const second = request.always.options[1];
    assert.ok(second);
    assert.deepEqual(answerOf({ kind: "always", option: second }, request), { reply: "always", option: 1 });
    assert.deepEqual(answerOf({ kind: "deny", message: "no" }, request), { reply: "deny", message: "no" });
    assert.deepEqual(answerOf({ kind: "cancel" }, request), { reply: "deny", message: "the person left the prompt" });
  });
});
