import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import type { Answer, RecordedDecision } from "../contracts/decisions.js";
import {
  budgetNote,
  callSignature,
  decideDone,
  decideLength,
  decideLimit,
  decideRepeat,
  EMPTY_RETRIES,
  LENGTH_CONTINUES,
} from "./judge.js";

/** An answer as the loop records it, for expectDecision. */
const asRecorded = (seat: string, answer: Answer | undefined): RecordedDecision[] =>
  answer ? [{ seat, ...answer, seq: 1, at: "" }] : [];

describe("decideDone (turn.done)", () => {
  it("continues when the response has tool calls, whatever its text (the model's choice)", () => {
    const answer = decideDone({ toolCalls: 2, text: "", emptySoFar: 0 });
    expectDecision(asRecorded("turn.done", answer), "turn.done", "model", "continue");
    assert.deepEqual(answer.reasons, [{ rule: "tool calls", detail: "2 call(s) to run", decisive: true }]);
    assert.equal(decideDone({ toolCalls: 1, text: "Working on it.", emptySoFar: 2 }).answer, "continue");
  });

  it("is done when the model ends with text and no tool calls", () => {
    const answer = decideDone({ toolCalls: 0, text: "All fixed.", emptySoFar: 0 });
    expectDecision(asRecorded("turn.done", answer), "turn.done", "model", "done");
    assert.deepEqual(answer.reasons, [{ rule: "ended without tool calls", decisive: true }]);
    // Earlier empty replies do not matter once there is text.
    assert.equal(decideDone({ toolCalls: 0, text: "ok", emptySoFar: 2 }).answer, "done");
  });

  it("asks again after an empty reply, twice, then fails (code decides)", () => {
    assert.equal(EMPTY_RETRIES, 2);
    const first = decideDone({ toolCalls: 0, text: "", emptySoFar: 0 });
    expectDecision(asRecorded("turn.done", first), "turn.done", "code", "retry-empty");
    assert.equal(first.reasons[0]?.detail, "asked again (1 of 2)");
    const second = decideDone({ toolCalls: 0, text: "  \n\t", emptySoFar: 1 });
    assert.equal(second.answer, "retry-empty");
    assert.equal(second.holder, "code");
    assert.equal(second.reasons[0]?.detail, "asked again (2 of 2)");
    const third = decideDone({ toolCalls: 0, text: "", emptySoFar: 2 });
    expectDecision(asRecorded("turn.done", third), "turn.done", "code", "fail-empty");
    assert.equal(third.reasons[0]?.detail, "still empty after 2 retries");
    assert.equal(decideDone({ toolCalls: 0, text: "", emptySoFar: 5 }).answer, "fail-empty");
  });

  it("marks exactly one reason decisive", () => {
    for (const input of [
      { toolCalls: 1, text: "", emptySoFar: 0 },
      { toolCalls: 0, text: "x", emptySoFar: 0 },
      { toolCalls: 0, text: "", emptySoFar: 0 },
      { toolCalls: 0, text: "", emptySoFar: 2 },
    ]) {
      assert.equal(decideDone(input).reasons.filter((r) => r.decisive).length, 1);
    }
  });
});

describe("decideLength (turn.continue_after_length)", () => {
  it("has nothing to say unless the output was cut at the limit", () => {
    for (const finishReason of ["stop", "tool-calls", "content-filter", "error", "other"] as const) {
      assert.equal(decideLength({ finishReason, continuedSoFar: 0 }), undefined, finishReason);
    }
  });

  it("continues a cut reply twice, then fails (code decides)", () => {
    assert.equal(LENGTH_CONTINUES, 2);
    const first = decideLength({ finishReason: "length", continuedSoFar: 0 });
    expectDecision(asRecorded("turn.continue_after_length", first), "turn.continue_after_length", "code", "continue");
    assert.equal(first?.reasons[0]?.detail, "continue (1 of 2)");
    const second = decideLength({ finishReason: "length", continuedSoFar: 1 });
    assert.equal(second?.answer, "continue");
    assert.equal(second?.reasons[0]?.detail, "continue (2 of 2)");
    const third = decideLength({ finishReason: "length", continuedSoFar: 2 });
    expectDecision(asRecorded("turn.continue_after_length", third), "turn.continue_after_length", "code", "fail");
    assert.equal(third?.reasons[0]?.detail, "still cut after 2 continuations");
  });
});

describe("decideLimit (turn.limit)", () => {
  it("lets every step up to and including max_steps run", () => {
    assert.equal(decideLimit({ step: 1, maxSteps: 10, source: "built-in" }), undefined);
    assert.equal(decideLimit({ step: 9, maxSteps: 10, source: "built-in" }), undefined);
    assert.equal(decideLimit({ step: 10, maxSteps: 10, source: "built-in" }), undefined);
    assert.equal(decideLimit({ step: 1, maxSteps: 1, source: "built-in" }), undefined);
  });

  it("stops the step after max_steps, held by config with the key's source", () => {
    const answer = decideLimit({ step: 11, maxSteps: 10, source: "/p/bosun.json" });
    expectDecision(asRecorded("turn.limit", answer), "turn.limit", "config", "stop");
    assert.deepEqual(answer?.reasons, [
      { rule: "max steps reached", detail: "10 steps", source: "/p/bosun.json", decisive: true },
    ]);
    assert.equal(decideLimit({ step: 2, maxSteps: 1, source: "BOSUN_MAX_STEPS" })?.answer, "stop");
  });
});

describe("budgetNote", () => {
  it("says nothing up to half-way", () => {
    assert.equal(budgetNote(1, 10), undefined);
    assert.equal(budgetNote(5, 10), undefined);
    assert.equal(budgetNote(50, 100), undefined);
    assert.equal(budgetNote(2, 5), undefined);
  });

  it("from just past half-way, tells the step, the budget and what is left including this step", () => {
    assert.equal(
      budgetNote(6, 10),
      "Step budget: this is step 6 of 10; 5 left including this one. Plan to finish within it.",
    );
    assert.match(budgetNote(3, 5) ?? "", /step 3 of 5; 3 left including this one/);
    assert.match(budgetNote(51, 100) ?? "", /step 51 of 100; 50 left/);
    assert.match(budgetNote(10, 10) ?? "", /step 10 of 10; 1 left including this one/);
    assert.match(budgetNote(1, 1) ?? "", /step 1 of 1; 1 left/);
  });
});

describe("decideRepeat (call.repeat)", () => {
  const A = callSignature("read", { path: "a" });
  const B = callSignature("read", { path: "b" });

  it("stops at the third identical call in a row with the default limit 3 (code decides)", () => {
    assert.equal(decideRepeat({ recent: [A], limit: 3 }), undefined);
    assert.equal(decideRepeat({ recent: [A, A], limit: 3 }), undefined);
    const answer = decideRepeat({ recent: [A, A, A], limit: 3 });
    expectDecision(asRecorded("call.repeat", answer), "call.repeat", "code", "stop");
    assert.deepEqual(answer?.reasons, [
      { rule: "same call repeated", detail: `read {"path":"a"} 3 times in a row (repeat_limit)`, decisive: true },
    ]);
  });

  it("stops at the second with limit 2", () => {
    assert.equal(decideRepeat({ recent: [A], limit: 2 }), undefined);
    assert.equal(decideRepeat({ recent: [B, A], limit: 2 }), undefined);
    assert.equal(decideRepeat({ recent: [B, A, A], limit: 2 })?.answer, "stop");
    assert.match(decideRepeat({ recent: [A, A], limit: 2 })?.reasons[0]?.detail ?? "", / 2 times in a row/);
  });

  it("does not stop when a different call interrupts the run", () => {
    assert.equal(decideRepeat({ recent: [A, A, B], limit: 3 }), undefined);
    assert.equal(decideRepeat({ recent: [A, A, B, A], limit: 3 }), undefined);
    assert.equal(decideRepeat({ recent: [A, B, A, B, A, B], limit: 3 }), undefined);
    assert.equal(decideRepeat({ recent: [A, B, A], limit: 2 }), undefined);
    // ...and counts afresh after the interruption.
    assert.equal(decideRepeat({ recent: [A, A, B, A, A, A], limit: 3 })?.answer, "stop");
  });

  it("looks only at the latest calls", () => {
    assert.equal(decideRepeat({ recent: [A, A, A, B], limit: 3 }), undefined);
    assert.equal(decideRepeat({ recent: [A, A, A, B, B, B], limit: 3 })?.reasons[0]?.detail?.startsWith(B), true);
  });
});

describe("callSignature", () => {
  it("does not depend on key order, at any depth", () => {
    assert.equal(
      callSignature("edit", { path: "a", old_string: "x", new_string: "y" }),
      callSignature("edit", { new_string: "y", old_string: "x", path: "a" }),
    );
    assert.equal(
      callSignature("t", { o: { b: 1, a: [{ y: 2, x: 1 }] } }),
      callSignature("t", { o: { a: [{ x: 1, y: 2 }], b: 1 } }),
    );
  });

  it("tells apart different tools, values, types and array orders", () => {
    const base = callSignature("read", { path: "a" });
    assert.notEqual(base, callSignature("list", { path: "a" }));
    assert.notEqual(base, callSignature("read", { path: "b" }));
    assert.notEqual(callSignature("read", { limit: 1 }), callSignature("read", { limit: "1" }));
    assert.notEqual(callSignature("t", { a: [1, 2] }), callSignature("t", { a: [2, 1] }));
    assert.notEqual(callSignature("t", { a: 1 }), callSignature("t", { a: 1, b: 2 }));
  });

  it("is the tool name and compact sorted JSON", () => {
    assert.equal(
      callSignature("shell", { command: "ls", background: false }),
      'shell {"background":false,"command":"ls"}',
    );
    assert.equal(callSignature("list", {}), "list {}");
  });
});
