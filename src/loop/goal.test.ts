import assert from "node:assert/strict";
import { test } from "node:test";
import { decideGoal, FEEDBACK_CHARS, overBudget } from "./goal.js";

const budget = { steps: 10, ms: 60_000, cost: 1 };
const spent = { steps: 1, ms: 10, cost: 0 };

test("exit 0 is done; a failure goes back; a check that cannot run is never success", () => {
  assert.equal(decideGoal("t", { ran: true, exitCode: 0, output: "" }, spent, budget).kind, "done");
  assert.equal(decideGoal("t", { ran: true, exitCode: 1, output: "no" }, spent, budget).kind, "again");
  assert.equal(decideGoal("t", { ran: false, why: "ENOENT" }, spent, budget).kind, "again");
  const out = decideGoal("t", { ran: false, why: "ENOENT" }, { ...spent, steps: 10 }, budget);
  assert.equal(out.kind, "out_of_budget");
});

test("the feedback is the output's tail; each bound ends the goal; a recipe's retries bound the failures fed back", () => {
  const long = `${"x".repeat(FEEDBACK_CHARS)}THE END`;
  const again = decideGoal("t", { ran: true, exitCode: 1, output: long }, spent, budget);
  assert.ok(again.kind === "again" && again.feedback.includes("THE END") && again.feedback.length < long.length + 100);
  assert.match(overBudget({ ...spent, ms: 61_000 }, budget) ?? "", /61\.0 s of 60 s/);
  assert.match(overBudget({ ...spent, cost: 1.5 }, budget) ?? "", /\$1\.50 of \$1\.00/);
  assert.equal(overBudget(spent, budget), undefined);
  const fail = { ran: true as const, exitCode: 2, output: "" };
  assert.equal(decideGoal("t", fail, spent, budget, { failures: 1, retries: 2 }).kind, "again");
  const spentRetries = decideGoal("t", fail, spent, budget, { failures: 2, retries: 2 });
  assert.equal(spentRetries.kind, "out_of_budget");
  assert.match(spentRetries.kind === "out_of_budget" ? spentRetries.message : "", /2 of 2 retries/);
  assert.equal(decideGoal("t", fail, spent, budget, { failures: 0, retries: 0 }).kind, "out_of_budget");
});
