import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import type { Answer, RecordedDecision } from "../seats/types.js";
import { decideApprovalWithoutPerson, NOBODY_CAN_APPROVE } from "./approval.js";

const asRecorded = (answer: Answer): RecordedDecision[] => [{ seat: "call.approval", ...answer, seq: 1, at: "" }];

describe("decideApprovalWithoutPerson (call.approval)", () => {
  it("with --auto, is the person's answer given in advance: allow once", () => {
    const answer = decideApprovalWithoutPerson({ auto: true, tool: "shell" });
    expectDecision(asRecorded(answer), "call.approval", "person", "allow-once");
    assert.deepEqual(answer.reasons, [
      { rule: "approved in advance", detail: "--auto allows shell this once", source: "--auto", decisive: true },
    ]);
  });

  it("without --auto, code denies: nobody said yes", () => {
    const answer = decideApprovalWithoutPerson({ auto: false, tool: "edit" });
    expectDecision(asRecorded(answer), "call.approval", "code", "deny");
    assert.equal(answer.reasons.length, 1);
    assert.equal(answer.reasons[0]?.rule, "no person to ask");
    assert.equal(answer.reasons[0]?.decisive, true);
    assert.equal(answer.reasons[0]?.source, undefined);
  });

  it("names the tool it allows", () => {
    assert.match(decideApprovalWithoutPerson({ auto: true, tool: "write" }).reasons[0]?.detail ?? "", /write/);
  });

  it("tells the model not to retry a call nobody can approve", () => {
    assert.match(NOBODY_CAN_APPROVE, /^Denied: /);
    assert.match(NOBODY_CAN_APPROVE, /Do not retry it/);
    assert.match(NOBODY_CAN_APPROVE, /--auto/);
  });
});
