import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import type { Answer, RecordedDecision } from "../contracts/decisions.js";
import { budgetNote, decideDone, decideLength, decideLimit, EMPTY_RETRIES, LENGTH_CONTINUES } from "./judge.js";

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

describe("decideDone and the todo list", () => {
  it("reminds once of open items, then the model's end stands; no list, no reminder", () => {
    const base = { toolCalls: 0, text: "Done.", emptySoFar: 0 };
    assert.equal(decideDone({ ...base, openTodos: ["b"] }).answer, "remind-todo");
    assert.equal(decideDone({ ...base, openTodos: ["b"] }).holder, "code");
    const after = decideDone({ ...base, openTodos: ["b"], todoReminded: true });
    assert.deepEqual([after.holder, after.answer], ["model", "done"]);
    assert.equal(decideDone({ ...base, openTodos: [] }).answer, "done");
    // An empty reply is asked again first: the reminder is for a reply that ends the turn.
    assert.equal(decideDone({ ...base, text: "", openTodos: ["b"] }).answer, "retry-empty");
  });
});
