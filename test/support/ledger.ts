import assert from "node:assert/strict";
import type { Holder, RecordedDecision } from "../../src/contracts/decisions.js";

/**
 * Asserts that the ledger holds a decision of `seat` by `holder` (and, when given, with exactly
 * `answer`), and returns it. The seat-coverage test requires every declared seat to be checked
 * through this function somewhere, so each seat has a test of its recorded holder and answer.
 */
export function expectDecision(
  decisions: readonly RecordedDecision[],
  seat: string,
  holder: Holder,
  ...answer: [unknown?]
): RecordedDecision {
  const ofSeat = decisions.filter((d) => d.seat === seat);
  assert.ok(
    ofSeat.length > 0,
    `no ${seat} decision in the ledger (seats there: ${[...new Set(decisions.map((d) => d.seat))].join(", ")})`,
  );
  const matching = ofSeat.filter((d) => d.holder === holder);
  assert.ok(matching.length > 0, `${seat} was decided by ${ofSeat.map((d) => d.holder).join(", ")}, not ${holder}`);
  if (answer.length === 0) return matching[matching.length - 1] as RecordedDecision;
  const found = matching.find((d) => isDeepStrictEqual(d.answer, answer[0]));
  assert.ok(
    found,
    `${seat} by ${holder} answered ${matching.map((d) => JSON.stringify(d.answer)).join(", ")}, not ${JSON.stringify(answer[0])}`,
  );
  return found;
}

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}
