import assert from "node:assert/strict";
import { test } from "node:test";
import { decideGoal } from "./goal.js";

const budget = { steps: 10, ms: 60_000, cost: 1 };
const spent = { steps: 1, ms: 10, cost: 0 };

test("exit 0 is done; a failure goes back; a check that cannot run is never success", () => {
  assert.equal(decideGoal("t", { ran: true, exitCode: 0, output: "" }, spent, budget).kind, "done");
  assert.equal(decideGoal("t", { ran: true, exitCode: 1, output: "no" }, spent, budget).kind, "again");
  assert.equal(decideGoal("t", { ran: false, why: "ENOENT" }, spent, budget).kind, "again");
  const out = decideGoal("t", { ran: false, why: "ENOENT" }, { ...spent, steps: 10 }, budget);
  assert.equal(out.kind, "out_of_budget");
});
