import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "../config/load.js";
import type { GoalSpec } from "../contracts/goal.js";
import { goalDeps } from "./goal-deps.js";

const config = loadConfig({ cwd: process.cwd(), flags: [] });

function spanRecorder() {
  const spans: string[] = [];
  const runSpan = async (command: string) => {
    spans.push(command);
    return command === "refused"
      ? { output: "[not run: the rules deny shell:refused]", exitCode: null }
      : { output: "ok", exitCode: 0 };
  };
  return { spans, where: { runSpan, cwd: process.cwd() } };
}

const recipe = (fromRepository: boolean): GoalSpec => ({
  source: { kind: "recipe", file: "/repo/.bosun/recipes/fix.yaml", fromRepository },
  commands: ["refused"],
  retries: 1,
});

test("a repository's recipe's checks go through the session's call pipeline, judged; a refusal is not run, never a pass", async () => {
  const { spans, where } = spanRecorder();
  const { goal } = goalDeps({ turn: undefined, session: recipe(true) }, config, where, undefined);
  assert.ok(goal);
  const result = await goal.check("refused", new AbortController().signal);
  assert.deepEqual(spans, ["refused"]);
  assert.equal(result.ran, false);
  assert.match(result.ran ? "" : result.why, /not run: the rules deny/);
});

test("the person's own checks (their recipe, --until) run as theirs, not through the span runner", async () => {
  const { spans, where } = spanRecorder();
  const { goal } = goalDeps({ turn: undefined, session: recipe(false) }, config, where, undefined);
  const result = await goal?.check("exit 3", new AbortController().signal);
  assert.deepEqual(spans, []);
  assert.deepEqual(result, { ran: true, exitCode: 3, output: "" });
  const missing = await goal?.check("no-such-command-xyz", new AbortController().signal);
  assert.equal(missing?.ran, false);
});

test("the turn's goal wins over the session's; null clears it; the budget comes from config with its source", () => {
  const { where } = spanRecorder();
  const person: GoalSpec = { source: { kind: "person", surface: "slash" }, commands: ["true"] };
  assert.equal(goalDeps({ turn: null, session: person }, config, where, undefined).goal, undefined);
  const { goal } = goalDeps({ turn: person, session: recipe(true) }, config, where, undefined);
  assert.equal(goal?.spec, person);
  assert.equal(goal?.budget.steps, config.config.goal.max_steps);
  assert.deepEqual(
    goal?.budgetReasons.map((r) => r.key),
    ["goal.max_steps", "goal.max_seconds", "goal.max_cost"],
  );
});
