import { dirname } from "node:path";
import { loadConfig } from "../config/load.js";
import { globalConfigFile } from "../config/paths.js";
import { type Recipe, recipeValues, renderRecipe } from "../config/recipe.js";
import type { Decision } from "../contracts/decisions.js";
import type { GoalSpec } from "../contracts/goal.js";
import { ConfigError } from "../errors.js";
import { type FoundRecipe, findNamedRecipe, findRecipe } from "../input/recipe-files.js";
import type { TurnOutcome } from "../loop/turn.js";
import type { SessionOptions } from "../runtime/options.js";
import {
  compileResponse,
  type ResponseIo,
  type ResponseValidator,
  untilSchemaMet,
} from "../runtime/recipe-response.js";
import { decideRecipeSettings } from "../runtime/recipe-settings.js";
import type { SubRecipe } from "../runtime/sub-recipe.js";
import { workspaceOf } from "../util/repo.js";

/** What `--recipe` makes of a run: its message, the session's options, and what to record once it is open. */
export interface RecipeRun {
  found: FoundRecipe;
  /** The recipe's prompt with the parameters filled in as text (then the run's own words, if any). */
  text: string;
  /** Settings the recipe brings that apply (agent and model as its choice, its mode), and its checks as the goal. */
  options: Pick<SessionOptions, "command" | "mode" | "goal" | "subRecipes">;
  /** Where the mode was chosen, when the recipe's applies. */
  modeChoice?: { rule: string; source: string; holder: "config" };
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
  const home = recipeHome(input.cwd);
  const found = findRecipe(input.ref, home);
  const { recipe, entry, fromRepository } = found;
  const values = recipeValues(recipe, input.params, input.cwd);
  const subs = await subRecipeTasks(found, values, home);
  const prompt = [renderRecipe(recipe, values), ...(subs.text ? [subs.text] : [])].join("\n\n");
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
      ...(subs.subs.length > 0 ? { subRecipes: subs.subs } : {}),
    },
    ...(settings.mode !== undefined
      ? { modeChoice: { rule: `recipe ${entry.name} mode`, source: entry.file, holder: "config" as const } }
      : {}),
    decision: subs.names.length
      ? {
          ...settings.decision,
          reasons: [
            ...settings.decision.reasons,
            {
              rule: "sub-recipes",
              detail: `${subs.names.join(", ")}: offered to the model by name: the task tool's recipe runs each as a delegate that is it, its checks and response schema included (seat delegate.recipe), under the delegation rules`,
              source: entry.file,
            },
          ],
        }
      : settings.decision,
    ...(settings.warning ? { warning: settings.warning } : {}),
    ...(response ? { response } : {}),
  };
}

/** A recipe's `response` in the run: runtime/recipe-response.ts asks again or fails (seat recipe.response). */
export async function untilResponse(
  first: TurnOutcome,
  recipe: Pick<RecipeRun, "response" | "found">,
  io: ResponseIo,
): Promise<TurnOutcome> {
  if (!recipe.response) return first;
  // The run's outcome as it was; the valid value is the answer's text, which the run prints.
  const { response: _, ...outcome } = await untilSchemaMet(first, recipe.response, recipe.found.entry.shown, io);
  return outcome;
}

/**
 * A recipe's `sub_recipes`, run as delegates that are them: each is read (a name among the
 * recipes found, never this recipe), given the parent's values for the parameters it shares (a
 * value it does not take is the recipe's error), its response schema compiled, and offered to
 * the model by name: the task tool's `recipe` runs it (seat delegate.recipe) — its prompt, its
 * agent (build when it names none), a mode never looser than this session's, its checks and its
 * schema. A delegate is judged as any is (delegate:<agent>; its authority never wider than this
 * session's). One level: a sub-recipe's own sub_recipes are not offered.
 */
async function subRecipeTasks(
  found: FoundRecipe,
  values: ReadonlyMap<string, string | number | boolean>,
  home: ReturnType<typeof recipeHome>,
): Promise<{ text?: string; names: string[]; subs: SubRecipe[] }> {
  const { recipe, entry } = found;
  if (recipe.subRecipes.length === 0) return { names: [], subs: [] };
  const parts: string[] = [];
  const subs: SubRecipe[] = [];
  for (const name of recipe.subRecipes) {
    const fail = (message: string): never => {
      throw new ConfigError(`${entry.shown}: sub_recipes: ${name}: ${message}`);
    };
    if (name === entry.name) fail("a recipe cannot be its own sub-recipe");
    let sub: FoundRecipe;
    try {
      sub = findNamedRecipe(name, home);
    } catch (error) {
      return fail((error as Error).message);
    }
    const shared: Record<string, string | number | boolean> = {};
    for (const param of sub.recipe.parameters) {
      const value = values.get(param.name);
      if (value === undefined) continue;
      try {
        // One parameter at a time: one the parent does not share is the task call's to give.
        recipeValues({ ...sub.recipe, parameters: [param] }, [`${param.name}=${String(value)}`], home.cwd);
      } catch (error) {
        return fail((error as Error).message);
      }
      shared[param.name] = value;
    }
    let response: SubRecipe["response"];
    if (sub.recipe.response) {
      const compiled = await compileResponse(sub.recipe.response);
      if ("error" in compiled) return fail(`response: ${compiled.error}`);
      response = { schema: sub.recipe.response, validate: compiled };
    }
    subs.push({
      name,
      recipe: sub.recipe,
      file: sub.entry.file,
      shown: sub.entry.shown,
      fromRepository: sub.fromRepository,
      shared,
      ...(response ? { response } : {}),
    });
    parts.push(subRecipeLine(name, sub.recipe, shared));
  }
  return {
    text: [
      'This recipe has sub-recipes: run each in a delegate with the task tool, giving recipe: "<name>" (and params for the parameters it needs) instead of an agent and a copy of a prompt. The delegate is then the sub-recipe: its prompt, its agent, its checks and its response schema; its result says whether its checks passed. Use what it returns.',
      ...parts,
    ].join("\n"),
    names: recipe.subRecipes,
    subs,
  };
}

/** One sub-recipe as the model is told of it: the task call to make, its agent, its parameters and whose values fill them. */
function subRecipeLine(name: string, sub: Recipe, shared: Record<string, string | number | boolean>): string {
  const params = sub.parameters.map((p) =>
    p.name in shared
      ? `${p.name} (the parent's: ${JSON.stringify(shared[p.name])})`
      : p.required
        ? `${p.name} (required${p.description ? `: ${p.description}` : ""})`
        : `${p.name} (default ${JSON.stringify(p.default)})`,
  );
  return [
    `- sub-recipe "${name}" (${sub.title}${sub.description ? `: ${sub.description}` : ""}): task recipe "${name}", agent "${sub.agent ?? "build"}"`,
    params.length > 0 ? `; params ${params.join(", ")}` : "",
    sub.checks.length > 0 ? `; ${sub.checks.length} check(s) must pass` : "",
    sub.response ? "; its answer must fit its response schema" : "",
  ].join("");
}
