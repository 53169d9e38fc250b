import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRecipe } from "../config/recipe.js";
import { decideSubRecipe, recipeResult, type SubRecipe, subRecipeGoal } from "./sub-recipe.js";

const recipe = parseRecipe(
  'title: Fix\nprompt: "Fix {{ thing }} {{ n }}"\nagent: plan\nchecks: [npm test]\nretries: 1\nparameters:\n  - name: thing\n    required: true\n  - name: n\n    type: number\n    default: 1\n',
  "fix.yaml",
);
const sub: SubRecipe = {
  name: "fix",
  recipe,
  file: "/r/fix.yaml",
  shown: "fix.yaml",
  fromRepository: true,
  shared: { thing: "widget" },
};

describe("seat delegate.recipe", () => {
  it("runs a sub-recipe with the call's params over the parent's values over its defaults, values as data", () => {
    const ran = decideSubRecipe([sub], { recipe: "fix", params: { n: 3 } }, process.cwd());
    assert.equal(ran.decision.holder, "code");
    assert.equal(ran.decision.answer, 'fix {"thing":"widget","n":3}');
    assert.equal(ran.task?.prompt, "Fix widget 3");
    assert.equal(ran.task?.agent, "plan");
    const data = decideSubRecipe([sub], { recipe: "fix", params: { thing: "{{ n }} $(rm -rf /)" } }, process.cwd());
    assert.equal(data.task?.prompt, "Fix {{ n }} $(rm -rf /) 1");
  });

  it("refuses a name not offered (listing the allowed), a bad value, another agent, a task_id", () => {
    const cases = [
      [{ recipe: "deploy" }, /"deploy" is not a sub-recipe .*\(allowed: "fix"\)/],
      [{ recipe: "fix", params: { n: "many" } }, /params\.n must be a number/],
      [{ recipe: "fix", params: { other: 1 } }, /has no parameter "other"/],
      [{ recipe: "fix", agent: "build" }, /its own agent "plan"/],
      [{ recipe: "fix", task_id: "s1" }, /recipe or task_id, not both/],
    ] as const;
    for (const [ask, why] of cases) {
      const refused = decideSubRecipe([sub], ask, process.cwd());
      assert.equal(refused.decision.answer, "refused");
      assert.equal(refused.task, undefined);
      assert.match(refused.refused ?? "", why);
    }
    assert.match(decideSubRecipe([], { recipe: "fix" }, process.cwd()).refused ?? "", /no sub-recipes/);
  });

  it("its checks are a repository's goal with its retries; a failed check is never a done result", () => {
    assert.deepEqual(subRecipeGoal(sub), {
      source: { kind: "recipe", file: "/r/fix.yaml", fromRepository: true },
      commands: ["npm test"],
      retries: 1,
    });
    const task = decideSubRecipe([sub], { recipe: "fix" }, process.cwd()).task;
    assert.ok(task);
    const failed = recipeResult({ output: "Done.", summary: "task plan: done" }, task, {
      checks: "failed",
      attempts: 2,
    });
    assert.equal(failed.isError, true);
    assert.match(failed.output, /^Sub-recipe "fix" failed: its checks did not pass/);
    const done = recipeResult({ output: "Done.", summary: "task plan: done" }, task, {
      checks: "passed",
      attempts: 1,
      response: { ok: true },
    });
    assert.notEqual(done.isError, true);
    assert.deepEqual(done.metadata?.response, { ok: true });
  });
});
