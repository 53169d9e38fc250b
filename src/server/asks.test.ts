import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ApprovalRequest, approvalFromReply } from "../permission/gate/approval.js";
import { Asks, type AskView } from "./asks.js";
import { EventLog, KEPT_EVENTS } from "./event-log.js";

const request: ApprovalRequest = {
  tool: "write",
  callId: "c1",
  input: { path: "a.txt" },
  outcomes: [{ request: { action: "edit", resource: "/w/a.txt" }, effect: "ask", reasons: [], holder: "config" }],
  always: { options: [{ label: "always", rules: [] }] },
};

function asks(timeoutMs = 60_000) {
  const shown: AskView[] = [];
  return { asks: new Asks("the server", (view) => shown.push(view), timeoutMs), shown };
}

describe("a session's asks over HTTP", () => {
  it("each answer is the person's through the server; an unknown ask or option is refused", async () => {
    for (const [reply, answer] of [
      [{ reply: "once" }, "allow-once"],
      [{ reply: "always", option: 0 }, "allow-always"],
      [{ reply: "deny", message: "not that file" }, "deny-with-message"],
    ] as const) {
      const { asks: a, shown } = asks();
      const waiting = a.prompt.ask(request, new AbortController().signal);
      const [view] = shown;
      assert.deepEqual(view?.requests, [{ action: "edit", resource: "/w/a.txt", effect: "ask" }]);
      assert.deepEqual(a.list(), shown);
      assert.equal(a.answer("nope", { reply: "once" }), "unknown");
      assert.equal(a.answer(view?.ask ?? "", { reply: "always", option: 3 }), "bad option");
      assert.equal(a.answer(view?.ask ?? "", reply), "answered");
      const recorded = approvalFromReply(await waiting);
      assert.deepEqual([recorded.holder, recorded.answer], ["person", answer]);
      assert.deepEqual(recorded.reasons.at(-1), { rule: "answered through", detail: "the server" });
      assert.equal(a.answer(view?.ask ?? "", reply), "unknown", "answered once only");
      assert.deepEqual(a.list(), []);
    }
  });

  it("nobody answering is a deny by code: the client left, or the wait ran out; a cancelled turn leaves the prompt", async () => {
    const left = asks();
    const first = left.asks.prompt.ask(request, new AbortController().signal);
    left.asks.denyAll("the client disconnected");
    const gone = approvalFromReply(await first);
    assert.deepEqual([gone.holder, gone.answer, gone.reasons[0]?.detail], ["code", "deny", "the client disconnected"]);
    const slow = asks(30);
    const timed = approvalFromReply(await slow.asks.prompt.ask(request, new AbortController().signal));
    assert.deepEqual([timed.holder, timed.answer], ["code", "deny"]);
    assert.match(timed.reasons[0]?.detail ?? "", /no answer within/);
    const cancelled = asks();
    const controller = new AbortController();
    const waiting = cancelled.asks.prompt.ask(request, controller.signal);
    controller.abort();
    assert.equal((await waiting).kind, "cancel");
  });
});

describe("a session's event log", () => {
  it("numbers events, resumes after an id, keeps a bounded tail and says when some were dropped", () => {
    const log = new EventLog();
    const got: number[] = [];
    const unsubscribe = log.subscribe((e) => got.push(e.id));
    for (let i = 0; i < KEPT_EVENTS + 10; i++) log.push("text", { i });
    assert.equal(got.length, KEPT_EVENTS + 10);
    assert.deepEqual(
      log.since(KEPT_EVENTS + 8).events.map((e) => e.id),
      [KEPT_EVENTS + 9, KEPT_EVENTS + 10],
    );
    assert.equal(log.since(KEPT_EVENTS + 8).gap, false);
    const old = log.since(0);
    assert.equal(old.gap, true);
    assert.equal(old.events.length, KEPT_EVENTS);
    let emptied = false;
    log.onEmpty = () => {
      emptied = true;
    };
    unsubscribe();
    assert.equal(emptied, true);
    assert.equal(log.watchers, 0);
  });
});
