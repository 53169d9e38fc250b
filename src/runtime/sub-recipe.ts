import { type Recipe, recipeValues, renderRecipe } from "../config/recipe.js";
import type { Decision, Reason } from "../contracts/decisions.js";
import type { GoalSpec } from "../contracts/goal.js";
import type { ToolResult } from "../contracts/tools.js";
import type { ResponseValidator } from "./recipe-response.js";

export type ParamValue = string | number | boolean;

/**
 * A sub-recipe of the run's recipe, read before the session opened (cli/recipe-run.ts): the task
 * tool runs it as a delegate that is the sub-recipe — its prompt, agent, mode, checks and
 * response schema. One level: a delegate's own task tool offers none.
 */
export interface SubRecipe {
  name: string;
  recipe: Recipe;
  /** Its file, and the file as people are shown it. */
  file: string;
  shown: string;
  fromRepository: boolean;
  /** The parent's values of the parameters it shares: its values unless the task call gives others. */
  shared: Record<string, ParamValue>;
  response?: { schema: Record<string, unknown>; validate: ResponseValidator };
}

/** A sub-recipe as one task call settled it: the values it runs with, its prompt and agent. */
export interface RecipeTask {
  sub: SubRecipe;
  values: Record<string, ParamValue>;
  prompt: string;
  agent: string;
}

/** What a task call asks of a sub-recipe. */
export interface RecipeAsk {
  recipe: string;
  params?: Record<string, ParamValue>;
  agent?: string;
  prompt?: string;
  task_id?: string;
}

/** The most characters of the values the answer shows (the subject holds them all). */
const ANSWER_CHARS = 300;

/**
 * Seat `delegate.recipe`: which sub-recipe a task call runs, with which values — or refused: a
 * name not among the run's sub_recipes (the allowed ones listed, so the model can act on it), a
 * parameter the sub-recipe does not declare or a value it does not take, another agent than its
 * own, a task_id (a sub-recipe starts its own delegate). Pure; the delegator records it in the
 * parent's ledger. Values are data, inserted once as a run's parameters are (config/recipe.ts).
 */
export function decideSubRecipe(
  subs: readonly SubRecipe[],
  ask: RecipeAsk,
  cwd: string,
): { decision: Decision; task?: RecipeTask; refused?: string } {
  const names = subs.map((s) => s.name);
  const allowed =
    names.length > 0 ? names.map((n) => JSON.stringify(n)).join(", ") : "none: this run has no sub-recipes";
  const refuse = (why: string, reasons: Reason[] = []) => ({
    refused: why,
    decision: {
      seat: "delegate.recipe",
      holder: "code" as const,
      answer: "refused",
      reasons: [{ rule: "refused", detail: why, decisive: true }, ...reasons],
      subject: { recipe: ask.recipe },
    },
  });
  const sub = subs.find((s) => s.name === ask.recipe);
  if (!sub) {
    return refuse(`${JSON.stringify(ask.recipe)} is not a sub-recipe of this run's recipe (allowed: ${allowed})`, [
      { rule: "sub_recipes", detail: `the recipe task call runs only these: ${allowed}` },
    ]);
  }
  const agent = sub.recipe.agent ?? "build";
  const from = { source: sub.file };
  if (ask.task_id !== undefined)
    return refuse(`sub-recipe "${sub.name}" starts a delegate of its own: give recipe or task_id, not both`);
  if (ask.agent !== undefined && ask.agent !== agent)
    return refuse(`sub-recipe "${sub.name}" runs with its own agent "${agent}": leave agent out`);
  const given = ask.params ?? {};
  const merged = { ...sub.shared, ...given };
  let values: Map<string, ParamValue>;
  try {
    values = recipeValues(
      sub.recipe,
      Object.entries(merged).map(([k, v]) => `${k}=${String(v)}`),
      cwd,
    );
  } catch (error) {
    // The run's own messages name --param; here the values are the task call's params.
    const said = (error as Error).message.replace(/ \(--param [^)]*\)/, "").replace(/--param /g, "params.");
    return refuse(`sub-recipe "${sub.name}": ${said}`, [
      { rule: "parameters", detail: "as the recipe declares them", ...from },
    ]);
  }
  const prompt = renderRecipe(sub.recipe, values);
  const shown = Object.fromEntries(values);
  const words = JSON.stringify(shown);
  return {
    task: {
      sub,
      values: shown,
      prompt: ask.prompt ? `${prompt}\n\n${ask.prompt}` : prompt,
      agent,
    },
    decision: {
      seat: "delegate.recipe",
      holder: "code",
      answer: `${sub.name} ${words.length > ANSWER_CHARS ? `${words.slice(0, ANSWER_CHARS)}…` : words}`,
      reasons: [
        { rule: "sub_recipes", detail: `"${sub.name}" is a sub-recipe of this run's recipe`, decisive: true, ...from },
        {
          rule: "parameters",
          detail: paramsDetail(sub, given),
          ...from,
        },
        { rule: "agent", detail: sub.recipe.agent ? `${agent} (the sub-recipe's)` : `${agent} (it names none)` },
        ...(sub.recipe.mode
          ? [{ rule: "mode", detail: `${sub.recipe.mode}, or the parent's if that is stricter: never looser`, ...from }]
          : []),
        {
          rule: "checks",
          detail:
            sub.recipe.checks.length > 0
              ? `${sub.recipe.checks.length} check(s), fed back up to ${sub.recipe.retries} time(s) in the delegate`
              : "none",
        },
        { rule: "response", detail: sub.response ? "its schema is checked in the delegate" : "no schema" },
      ],
      subject: { recipe: sub.name, file: sub.file, params: shown },
    },
  };
}

function paramsDetail(sub: SubRecipe, given: Record<string, ParamValue>): string {
  const parts = sub.recipe.parameters.map((p) => {
    const whose = p.name in given ? "the task call's" : p.name in sub.shared ? "the parent's" : "its default";
    return `${p.name}: ${whose}`;
  });
  return parts.length > 0 ? parts.join(", ") : "it has none";
}

/** The sub-recipe's checks as its delegate's goal (seat turn.goal in its ledger), fed back up to its retries. */
export function subRecipeGoal(sub: SubRecipe): GoalSpec | undefined {
  if (sub.recipe.checks.length === 0) return undefined;
  return {
    source: { kind: "recipe", file: sub.file, fromRepository: sub.fromRepository },
    commands: sub.recipe.checks,
    retries: sub.recipe.retries,
  };
}

/** How a sub-recipe's delegate fared against its checks and its schema. */
export interface RecipeEnd {
  checks: "passed" | "failed" | "none";
  /** How many times its checks ran. */
  attempts: number;
  response?: unknown;
}

/**
 * The task result of a sub-recipe's delegate: the delegate's own (a failure stays one, never
 * "done"), said first whether its checks passed, and the response its schema accepted.
 */
export function recipeResult(result: ToolResult, task: RecipeTask, end: RecipeEnd): ToolResult {
  const checks =
    end.checks === "none"
      ? "it has no checks"
      : end.checks === "passed"
        ? `its checks passed (run ${end.attempts} time(s))`
        : `its checks did not pass (run ${end.attempts} time(s))`;
  const failed = result.isError === true || end.checks === "failed";
  const head = `Sub-recipe "${task.sub.name}" ${failed ? "failed" : "done"}: ${checks}.`;
  const response =
    !failed && end.response !== undefined
      ? `\nIts response (valid against its schema):\n${JSON.stringify(end.response, null, 2)}`
      : "";
  return {
    ...result,
    output: `${head}${response}\n\n${result.output}`,
    ...(failed ? { isError: true } : {}),
    summary: `sub-recipe ${task.sub.name}: ${failed ? "failed" : "done"}`,
    metadata: {
      ...result.metadata,
      recipe: task.sub.name,
      params: task.values,
      checks: end.checks,
      ...(!failed && end.response !== undefined ? { response: end.response } : {}),
    },
  };
}
