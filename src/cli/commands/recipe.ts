import type { Recipe, RecipeParameter } from "../../config/recipe.js";
import { BosunError, UsageError } from "../../errors.js";
import {
  discoverRecipes,
  type FoundRecipe,
  findNamedRecipe,
  findRecipe,
  keyLine,
  type RecipeEntry,
  recipeOf,
} from "../../input/recipe-files.js";
import { compileResponse } from "../../runtime/recipe-response.js";
import { printableText } from "../../util/printable.js";
import { formatTable } from "../../util/table.js";
import { json, out } from "../output.js";
import { recipeHome } from "../recipe-run.js";

/** Where a recipe comes from, as `bosun recipe list` says it. */
function origin(entry: RecipeEntry): string {
  return entry.scope === "project" ? "repository" : entry.scope === "global" ? "yours (config dir)" : "file";
}

/** `bosun recipe list`: every recipe found, where each comes from, and what shadows or left out which. */
export function listRecipes(options: { json?: boolean }): void {
  const home = recipeHome(process.cwd());
  const set = discoverRecipes(home);
  const rows = set.recipes.map((entry) => {
    const read = tryRead(entry, home.workspace);
    return { entry, title: "recipe" in read ? read.recipe.title : undefined, problem: read.problem };
  });
  if (options.json) {
    json({
      recipes: rows.map(({ entry, title, problem }) => ({
        name: entry.name,
        origin: entry.scope === "project" ? "repository" : "global",
        file: entry.shown,
        ...(title !== undefined ? { title } : {}),
        ...(problem !== undefined ? { problem } : {}),
      })),
      shadowed: set.shadowed.map(({ recipe, by }) => ({ name: recipe.name, file: recipe.shown, by: by.shown })),
      skipped: set.skipped,
    });
    return;
  }
  out(recipeListText(rows, set, home.globalDir));
}

/** The recipes as `bosun recipe list` (and /recipe alone) shows them. */
export function recipeListText(
  rows: ReadonlyArray<{ entry: RecipeEntry; title?: string | undefined; problem?: string | undefined }>,
  set: Pick<ReturnType<typeof discoverRecipes>, "shadowed" | "skipped">,
  globalDir: string,
): string {
  const lines: string[] = [];
  if (rows.length === 0) lines.push(`no recipes (they live in .bosun/recipes/ and ${globalDir}/recipes/)`);
  else
    lines.push(
      formatTable(
        ["NAME", "FROM", "FILE", "TITLE"],
        rows.map(({ entry, title, problem }) => [
          entry.name,
          origin(entry),
          entry.shown,
          title ?? `(invalid: ${problem})`,
        ]),
      ),
    );
  for (const { recipe, by } of set.shadowed) lines.push(`shadowed: ${recipe.shown} (by ${by.shown})`);
  for (const { file, reason } of set.skipped) lines.push(`not loaded: ${file}: ${reason}`);
  // Titles, file names and problems are the repository's text: shown, never able to drive the terminal.
  return printableText(lines.join("\n"));
}

/** The recipes found from `cwd`, as text. */
export function recipesHere(cwd: string): string {
  const home = recipeHome(cwd);
  const set = discoverRecipes(home);
  const rows = set.recipes.map((entry) => {
    const read = tryRead(entry, home.workspace);
    return { entry, title: "recipe" in read ? read.recipe.title : undefined, problem: read.problem };
  });
  return recipeListText(rows, set, home.globalDir);
}

function tryRead(entry: RecipeEntry, workspace: string): { recipe: Recipe; problem?: undefined } | { problem: string } {
  try {
    return { recipe: recipeOf(entry, workspace).recipe };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/** `bosun recipe show <name|file>`: the recipe in full, its parameters first. */
export function showRecipe(ref: string, options: { json?: boolean }): void {
  const found = findRecipe(ref, recipeHome(process.cwd()));
  const { recipe, entry } = found;
  if (options.json) {
    json({ name: entry.name, origin: origin(entry), ...recipe, file: entry.shown });
    return;
  }
  const lines = [`${recipe.title}  (${entry.name}, ${origin(entry)}: ${entry.shown})`];
  if (recipe.description) lines.push(recipe.description);
  lines.push("", "Parameters:");
  if (recipe.parameters.length === 0) lines.push("  (none)");
  for (const p of recipe.parameters) lines.push(`  ${parameterLine(p)}`);
  const setting = (key: string, value: string | undefined) => value !== undefined && lines.push(`${key}: ${value}`);
  lines.push("");
  setting("agent", recipe.agent);
  setting("model", recipe.model);
  setting("mode", recipe.mode);
  setting("mcp", recipe.mcp?.join(", "));
  if (recipe.checks.length > 0) {
    lines.push(`checks (retries ${recipe.retries}):`, ...recipe.checks.map((c) => `  ${c}`));
  }
  if (recipe.response) lines.push(`response: ${JSON.stringify(recipe.response)}`);
  if (recipe.subRecipes.length > 0) lines.push(`sub_recipes: ${recipe.subRecipes.join(", ")}`);
  if (found.fromRepository)
    lines.push(
      "the repository's recipe: its checks are judged as its commands; a looser mode or agent needs --trust-project",
    );
  lines.push("", "Prompt:", recipe.prompt.trimEnd());
  // Every line but the headings is the recipe's own text: a check hidden by escapes is shown as written.
  out(printableText(lines.join("\n")));
}

function parameterLine(p: RecipeParameter): string {
  const type = p.type === "enum" ? `enum (${p.values?.join(" | ")})` : p.type;
  const need = p.required ? "required" : `default ${JSON.stringify(p.default)}`;
  return `${p.name}  ${type}, ${need}${p.description ? `  — ${p.description}` : ""}`;
}

/**
 * `bosun recipe validate [name|file]`: every recipe found (or the one named) parsed, its
 * response schema compiled, its sub_recipes found. Each problem is printed as
 * `file:line: key: message`; exit 1 when there is one.
 */
export async function validateRecipes(ref: string | undefined): Promise<void> {
  const home = recipeHome(process.cwd());
  const problems: string[] = [];
  const valid: string[] = [];
  const check = async (load: () => FoundRecipe & { text?: string }, shown: string) => {
    let found: FoundRecipe & { text?: string };
    try {
      found = load();
    } catch (error) {
      if (!(error instanceof BosunError)) throw error;
      problems.push(/^[^\s:]+:\d+: /.test(error.message) ? error.message : `${shown}:1: ${error.message}`);
      return;
    }
    const before = problems.length;
    const at = (key: string) => `${found.entry.shown}:${keyLine(found.text ?? "", key)}: ${key}`;
    if (found.recipe.response) {
      const compiled = await compileResponse(found.recipe.response);
      if ("error" in compiled) problems.push(`${at("response")}: ${compiled.error}`);
    }
    for (const sub of found.recipe.subRecipes) {
      try {
        if (sub === found.entry.name) throw new Error(`${sub} is this recipe`);
        findNamedRecipe(sub, home);
      } catch (error) {
        problems.push(`${at("sub_recipes")}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (problems.length === before) valid.push(found.entry.shown);
  };
  if (ref !== undefined) await check(() => findRecipe(ref, home), ref);
  else {
    const set = discoverRecipes(home);
    if (set.recipes.length === 0)
      throw new UsageError("no recipes to validate (.bosun/recipes/ and the config dir's recipes/ are empty)");
    for (const entry of set.recipes) {
      await check(() => recipeOf(entry, home.workspace), entry.shown);
    }
  }
  for (const shown of valid) out(printableText(`ok: ${shown}`));
  for (const problem of problems) process.stderr.write(`${printableText(problem)}\n`);
  if (problems.length > 0) process.exitCode = 1;
}
