import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import type { Answer, RecordedDecision } from "../contracts/decisions.js";
import { callSignature, decideRepeat } from "./repeat.js";

/** An answer as the pipeline records it, for expectDecision. */
const asRecorded = (seat: string, answer: Answer | undefined): RecordedDecision[] =>
  answer ? [{ seat, ...answer, seq: 1, at: "" }] : [];

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
