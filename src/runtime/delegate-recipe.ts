import type { LoadedConfig } from "../config/load.js";
import type { Decision } from "../contracts/decisions.js";
import type { RunEvent, TurnOutcome } from "../loop/turn.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import { goalDeps } from "./goal-deps.js";
import { type PersonCallHost, personCalls } from "./person-calls.js";
import { untilSchemaMet } from "./recipe-response.js";
import { type RecipeEnd, type SubRecipe, subRecipeGoal } from "./sub-recipe.js";

/**
 * What makes a delegate the sub-recipe it runs (seat delegate.recipe): its checks are the goal of
 * its turns (seat turn.goal in its ledger, fed back up to its retries, a repository's run through
 * the delegate's own narrower gate), and its response schema is asked for again as a run's is
 * (seat recipe.response). The same runners as a top-level recipe's: runtime/goal-deps.ts,
 * runtime/recipe-response.ts. Without a sub-recipe, nothing is added.
 */
export function delegateRecipe(
  sub: SubRecipe | undefined,
  deps: {
    config: LoadedConfig;
    cwd: string;
    calls: PersonCallHost;
    prompt?: ApprovalPrompt;
    show: (event: RunEvent) => void;
  },
) {
  const checked = { attempts: 0, last: "" };
  // Each check's run is seen as it is shown: how many attempts, and whether the last one passed.
  const watch = (event: RunEvent) => {
    if (event.type === "decision" && event.decision.seat === "turn.goal") {
      const attempt = event.decision.subject?.attempt;
      checked.attempts = typeof attempt === "number" ? attempt : checked.attempts + 1;
      checked.last = String(event.decision.answer);
    }
    deps.show(event);
  };
  const runSpan = personCalls(deps.calls).runSpan;
  const goal = sub
    ? goalDeps({ turn: undefined, session: subRecipeGoal(sub) }, deps.config, { runSpan, cwd: deps.cwd }, deps.prompt)
    : {};
  return {
    watch,
    goal,
    /** After the delegate's first turn: its schema asked for again if need be, and how it fared. */
    async finish(
      first: TurnOutcome,
      turn: (text: string) => Promise<TurnOutcome>,
      record: (decision: Decision) => void,
    ): Promise<{ outcome: TurnOutcome; recipe?: RecipeEnd }> {
      if (!sub) return { outcome: first };
      const met = sub.response
        ? await untilSchemaMet(first, sub.response, sub.shown, { turn, record, emit: watch })
        : first;
      const { response, ...outcome } = met as typeof met & { response?: unknown };
      const checks = sub.recipe.checks.length === 0 ? "none" : checked.last === "passed" ? "passed" : "failed";
      return {
        outcome,
        recipe: { checks, attempts: checked.attempts, ...(response !== undefined ? { response } : {}) },
      };
    },
  };
}
