import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import type { Decision } from "../contracts/decisions.js";
import { steerDecision } from "./steer.js";

const recorded = (decision: Decision) => [{ ...decision, seq: 1, at: "" }];

describe("input.steer", () => {
  it("a message steering by default is code's answer; one the person made wait is the person's", () => {
    expectDecision(
      recorded(steerDecision({ text: "also x", how: "steer", chosen: false }, "steer")),
      "input.steer",
      "code",
      "steer",
    );
    const waited = steerDecision({ text: "then y", how: "queue", chosen: true }, "queue");
    expectDecision(recorded(waited), "input.steer", "person", "queue");
    assert.equal(waited.reasons.find((r) => r.decisive)?.detail, "delivered as the next message once the turn ended");
  });

  it("a steering message the turn ended before taking goes next, and code says why", () => {
    const late = steerDecision({ text: "too late", how: "steer", chosen: true }, "queue");
    expectDecision(recorded(late), "input.steer", "code", "queue");
    assert.equal(late.reasons.find((r) => r.decisive)?.rule, "no step left to steer");
  });

  it("a dropped message is the person's doing, with its first line shown", () => {
    const dropped = steerDecision({ text: `${"a".repeat(100)}\nmore`, how: "steer", chosen: false }, "drop");
    expectDecision(recorded(dropped), "input.steer", "person", "drop");
    assert.equal(dropped.reasons[0]?.detail, `${"a".repeat(79)}…`);
  });

  it("a command typed while something ran waited for it: code's rule, never the person's steer", () => {
    const waited = steerDecision({ text: "/why", how: "queue", chosen: false, kind: "command" }, "queue");
    expectDecision(recorded(waited), "input.steer", "code", "queue");
    assert.equal(waited.reasons.find((r) => r.decisive)?.rule, "a command waits");
  });

  it("a held message the person sends with Enter, or leaves waiting at the end, is the person's", () => {
    const message = { text: "later", how: "queue" as const, chosen: false };
    const sent = steerDecision(message, "queue", "enter");
    expectDecision(recorded(sent), "input.steer", "person", "queue");
    assert.equal(sent.reasons.find((r) => r.decisive)?.rule, "the person sent it");
    const left = steerDecision(message, "drop", "exit");
    expectDecision(recorded(left), "input.steer", "person", "drop");
    assert.match(left.reasons.find((r) => r.decisive)?.detail ?? "", /never delivered/);
  });
});
