import { dirname } from "node:path";
import { loadConfig } from "../config/load.js";
import { globalConfigFile } from "../config/paths.js";
import { recipeValues, renderRecipe } from "../config/recipe.js";
import type { Decision } from "../contracts/decisions.js";
import type { GoalSpec } from "../contracts/goal.js";
import { ConfigError } from "../errors.js";
import { type FoundRecipe, findRecipe } from "../input/recipe-files.js";
import type { RunEvent, TurnOutcome } from "../loop/turn.js";
import type { SessionOptions } from "../runtime/options.js";
import { askAgainText, compileResponse, type ResponseValidator, responseDecision } from "../runtime/recipe-response.js";
import { decideRecipeSettings } from "../runtime/recipe-settings.js";
import { workspaceOf } from "../util/repo.js";

/** What `--recipe` makes of a run: its message, the session's options, and what to record once it is open. */
export interface RecipeRun {
  found: FoundRecipe;
  /** The recipe's prompt with the parameters filled in as text (then the run's own words, if any). */
  text: string;
  /** Settings the recipe brings that apply (agent and model as its choice, its mode), and its checks as the goal. */
  options: Pick<SessionOptions, "command" | "mode" | "goal">;
  /** Where the mode was chosen, when the recipe's applies. */
  modeChoice?: { rule: string; source: string };
  /** Seat recipe.settings, recorded once the session is open. */
  decision: Decision;
  warning?: string;
  /** The response schema's check, when the recipe has one. */
  response?: { schema: Record<string, unknown>; validate: ResponseValidator };
}

export function recipeHome(cwd: string) {
  return { cwd, workspace: workspaceOf(cwd), globalDir: dirname(globalConfigFile()) };
}

/**
 * Reads the recipe (`--recipe <name|file>`), its parameters (`--param k=v`: an unknown or
 * missing one is a usage error, exit 2, naming it), and settles which of its settings apply
 * (seat recipe.settings). Everything here is checked before the session opens: a bad recipe
 * writes nothing.
 */
export async function prepareRecipeRun(input: {
  ref: string;
  params: readonly string[];
  words: string;
  cwd: string;
  flags: Pick<SessionOptions, "agent" | "model" | "mode" | "trustProject">;
}): Promise<RecipeRun> {
  const found = findRecipe(input.ref, recipeHome(input.cwd));
  const { recipe, entry, fromRepository } = found;
  const values = recipeValues(recipe, input.params, input.cwd);
  const prompt = renderRecipe(recipe, values);
  const text = input.words === "" ? prompt : `${prompt}\n\n${input.words}`;
  const config = loadConfig({ cwd: input.cwd });
  for (const server of recipe.mcp ?? []) {
    const entryOf = config.config.mcp?.[server];
    if (!entryOf || entryOf.enabled === false)
      throw new ConfigError(
        `${entry.shown}: mcp: the recipe needs MCP server "${server}", which is ${entryOf ? "disabled" : "not configured"} (bosun mcp list)`,
      );
  }
  const settings = decideRecipeSettings({
    recipe,
    name: entry.name,
    fromRepository,
    trusted: input.flags.trustProject === true,
    flags: {
      ...(input.flags.agent !== undefined ? { agent: input.flags.agent } : {}),
      ...(input.flags.model !== undefined ? { model: input.flags.model } : {}),
      ...(input.flags.mode !== undefined ? { mode: input.flags.mode } : {}),
    },
    agents: (config.config.agent ?? {}) as Record<string, { mode?: string; permission?: Record<string, unknown> }>,
  });
  const goal: GoalSpec | undefined =
    recipe.checks.length > 0
      ? {
          source: { kind: "recipe", file: entry.file, fromRepository },
          commands: recipe.checks,
          retries: recipe.retries,
        }
      : undefined;
  const choice =
    settings.agent !== undefined || settings.model !== undefined
      ? {
          name: entry.name,
          file: entry.file,
          kind: "recipe" as const,
          ...(settings.agent !== undefined ? { agent: settings.agent } : {}),
          ...(settings.model !== undefined ? { model: settings.model } : {}),
        }
      : undefined;
  let response: RecipeRun["response"];
  if (recipe.response) {
    const compiled = await compileResponse(recipe.response);
    if ("error" in compiled) throw new ConfigError(`${entry.shown}: response: ${compiled.error}`);
    response = { schema: recipe.response, validate: compiled };
  }
  return {
    found,
    text,
    options: {
      ...(choice ? { command: choice } : {}),
      ...(settings.mode !== undefined ? { mode: settings.mode } : {}),
      ...(goal ? { goal } : {}),
    },
    ...(settings.mode !== undefined ? { modeChoice: { rule: `recipe ${entry.name} mode`, source: entry.file } } : {}),
    decision: settings.decision,
    ...(settings.warning ? { warning: settings.warning } : {}),
    ...(response ? { response } : {}),
  };
}

/**
 * A recipe's `response`: the final answer of a turn that ended done must be JSON its schema
 * accepts (seat recipe.response, each answer recorded); one that does not is sent back with the
 * problems, at most RESPONSE_RETRIES times, then the run fails (exit 1) — never done.
 */
export async function untilResponse(
  first: TurnOutcome,
  recipe: Pick<RecipeRun, "response" | "found">,
  io: {
    turn: (text: string) => Promise<TurnOutcome>;
    record: (decision: Decision) => void;
    emit: (event: RunEvent) => void;
  },
): Promise<TurnOutcome> {
  const response = recipe.response;
  if (!response) return first;
  const file = recipe.found.entry.shown;
  let outcome = first;
  for (let attempt = 1; ; attempt++) {
    if (outcome.status !== "done") return outcome;
    const check = response.validate(outcome.lastText ?? "");
    const decision = responseDecision(check, attempt, file);
    io.record(decision);
    if (check.ok) return outcome;
    if (decision.answer === "failed") {
      const message = `the final answer does not satisfy the recipe's response schema (${file}): ${check.problems.join("; ")}`;
      io.emit({ type: "error", message });
      return { ...outcome, status: "failed", message };
    }
    outcome = await io.turn(askAgainText(check.problems, response.schema));
  }
}
