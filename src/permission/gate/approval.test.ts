import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../../../test/support/ledger.js";
import type { Answer, RecordedDecision } from "../../contracts/decisions.js";
import {
  approvalAdvice,
  approvalFromReply,
  decideApprovalWithoutPerson,
  deniedByPerson,
  NOBODY_CAN_APPROVE,
  nobodyCanApprove,
} from "./approval.js";

const asRecorded = (answer: Answer): RecordedDecision[] => [{ seat: "call.approval", ...answer, seq: 1, at: "" }];

describe("decideApprovalWithoutPerson (call.approval)", () => {
  it("with --auto, code applies the person's answer given in advance: allow once (nobody saw the call)", () => {
    const answer = decideApprovalWithoutPerson({ auto: true, tool: "shell" });
    expectDecision(asRecorded(answer), "call.approval", "code", "allow-once");
    assert.deepEqual(answer.reasons, [
      {
        rule: "approved in advance",
        detail: "--auto allows shell this once (nobody saw this call)",
        source: "--auto",
        decisive: true,
      },
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

  it("with --auto, still denies a call bosun cannot analyse: only a person may allow that", () => {
    const answer = decideApprovalWithoutPerson({ auto: true, tool: "shell", undescribed: "syntax error" });
    expectDecision(asRecorded(answer), "call.approval", "code", "deny");
    assert.match(answer.reasons[0]?.detail ?? "", /syntax error; only a person who sees this call can allow it/);
  });

  it("without --auto, a denial names the narrow flags that would allow the call; the advice and the model's text carry them", () => {
    const narrow = ["--allow 'shell:npm test *'"];
    const answer = decideApprovalWithoutPerson({ auto: false, tool: "shell", narrow });
    expectDecision(asRecorded(answer), "call.approval", "code", "deny");
    assert.deepEqual(answer.reasons[1], {
      rule: "narrow fix",
      detail: "--allow 'shell:npm test *' (checked: the call would be allowed)",
    });
    assert.equal(
      approvalAdvice(answer.reasons),
      "run with --allow 'shell:npm test *' to allow it (or --auto to approve every ask)",
    );
    assert.equal(
      nobodyCanApprove(narrow),
      `${NOBODY_CAN_APPROVE} The user can allow exactly this call with --allow 'shell:npm test *'.`,
    );
    assert.equal(nobodyCanApprove(), NOBODY_CAN_APPROVE);
    // No narrow flag: --auto, unless --auto was given and does not cover the call.
    assert.equal(
      approvalAdvice(decideApprovalWithoutPerson({ auto: false, tool: "edit" }).reasons),
      "run with --auto to approve",
    );
    const notCovered = decideApprovalWithoutPerson({ auto: true, tool: "shell", undescribed: "syntax error", narrow });
    assert.equal(notCovered.reasons.length, 1, "--auto given: no narrow fix offered beside it");
    assert.equal(approvalAdvice(notCovered.reasons), "only a person at a terminal can allow it");
  });

  it("in the interactive session the advice names its dialog and /mode auto, never a flag", () => {
    const narrow = ["--allow 'shell:npm test *'"];
    const advice = approvalAdvice(decideApprovalWithoutPerson({ auto: false, tool: "shell", narrow }).reasons, "tui");
    assert.equal(
      advice,
      "allow it in the approval dialog when it asks (a: always saves the rule), or switch with /mode auto to approve every ask",
    );
    const notCovered = decideApprovalWithoutPerson({ auto: true, tool: "shell", undescribed: "syntax error", narrow });
    assert.equal(
      approvalAdvice(notCovered.reasons, "tui"),
      "only you can allow it, in the approval dialog when it asks",
    );
    for (const text of [advice, approvalAdvice(notCovered.reasons, "tui")]) assert.doesNotMatch(text, /--/);
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

describe("approvalFromReply (call.approval with a person)", () => {
  it("records each answer as the person's", () => {
    expectDecision(asRecorded(approvalFromReply({ kind: "once" })), "call.approval", "person", "allow-once");
    const always = approvalFromReply({
      kind: "always",
      option: { label: "always", rules: [{ action: "shell", pattern: "git status *" }] },
    });
    expectDecision(asRecorded(always), "call.approval", "person", "allow-always");
    assert.equal(always.reasons[0]?.detail, "saved for this project: shell:git status *");
    expectDecision(asRecorded(approvalFromReply({ kind: "deny" })), "call.approval", "person", "deny");
    const message = approvalFromReply({ kind: "deny", message: "use the staging db" });
    expectDecision(asRecorded(message), "call.approval", "person", "deny-with-message");
    assert.equal(message.reasons[0]?.detail, "use the staging db");
    const left = approvalFromReply({ kind: "cancel" });
    assert.equal(left.answer, "deny");
    assert.match(left.reasons[0]?.detail ?? "", /turn stops/);
  });

  it("gives the model the person's message as the call's result", () => {
    assert.equal(deniedByPerson("use the staging db"), "Denied by the user, who says: use the staging db");
    assert.match(deniedByPerson(), /^Denied by the user\. Do not retry/);
  });
});
