import assert from "node:assert/strict";
import { it } from "node:test";
import { terminalDecision } from "./terminal.js";

it("exec.terminal: an editor's terminal is never used; the decision is recorded only when one was offered", () => {
  assert.equal(terminalDecision(false), undefined);
  const decision = terminalDecision(true);
  assert.equal(decision?.seat, "exec.terminal");
  assert.equal(decision?.holder, "code");
  assert.equal(decision?.answer, "bosun");
});
