import { type Dirent, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, extname, join, relative, resolve } from "node:path";
import { parseRecipe, type Recipe } from "../config/recipe.js";
import { UsageError } from "../errors.js";
import { readChecked } from "../permission/gate/checked-read.js";
import { isInside } from "../permission/rules/requests.js";

/**
 * Recipe files (issue 20): `<workspace>/.bosun/recipes/*.yaml|yml|json` (the repository's),
 * `<global config dir>/recipes/` (the person's), or a path. A name is a file's stem as found by
 * listing those folders — never joined onto a folder as a path — so `../x` or a link cannot make
 * a name read another file. A repository's recipe is the repository's config: it must be the
 * regular file it seems, with one name, inside the workspace (as its custom commands must).
 */

export interface RecipeEntry {
  /** The file's stem: `fix-test` for `fix-test.yaml`. */
  name: string;
  /** The file, absolute. */
  file: string;
  /** project: the repository's (needs trust to loosen anything); global: the person's own; path: named by path. */
  scope: "project" | "global" | "path";
  /** How the file is shown: relative to the workspace for a repository's, else absolute. */
  shown: string;
}

export interface RecipeSet {
  /** The recipes found, the repository's first, each name once. */
  recipes: RecipeEntry[];
  /** Files whose name an earlier one has (the repository's wins over the person's; .yaml over .yml over .json). */
  shadowed: Array<{ recipe: RecipeEntry; by: RecipeEntry }>;
  /** Files (or folders) left out, with why. */
  skipped: Array<{ file: string; reason: string }>;
}

/** A recipe's name: letters, digits, `-` and `_`, 1 to 64 of them. */
export const RECIPE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const EXTENSIONS = [".yaml", ".yml", ".json"];
/** A recipe file larger than this is left out. */
export const RECIPE_MAX_BYTES = 256 * 1024;

export function recipeRoots(options: { workspace: string; globalDir: string }) {
  return [
    { root: join(options.workspace, ".bosun", "recipes"), scope: "project" as const },
    { root: join(options.globalDir, "recipes"), scope: "global" as const },
  ];
}

/** Every recipe file in the two folders. Never throws for what it finds on disk. */
export function discoverRecipes(options: { workspace: string; globalDir: string }): RecipeSet {
  const set: RecipeSet = { recipes: [], shadowed: [], skipped: [] };
  const byName = new Map<string, RecipeEntry>();
  const searched = new Set<string>();
  for (const { root, scope } of recipeRoots(options)) {
    let entries: Dirent[];
    let real: string;
    try {
      real = realpathSync(root);
      if (searched.has(real)) continue;
      searched.add(real);
      // The repository's folder must be the repository's: `.bosun/recipes` linked to elsewhere is left out.
      if (scope === "project" && !isInside(real, realpathSync(options.workspace))) {
        set.skipped.push({ file: root, reason: `the folder is outside the workspace (${real})` });
        continue;
      }
      entries = readdirSync(real, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR")
        set.skipped.push({ file: root, reason: `the recipes folder cannot be read: ${describe(error)}` });
      continue;
    }
    const files = entries
      .filter((e) => EXTENSIONS.includes(extname(e.name)))
      .sort((a, b) => order(a.name) - order(b.name) || a.name.localeCompare(b.name));
    for (const entry of files) {
      const file = join(real, entry.name);
      const name = entry.name.slice(0, -extname(entry.name).length);
      if (!RECIPE_NAME.test(name)) {
        set.skipped.push({
          file,
          reason: `invalid recipe name ${JSON.stringify(name)}: use 1-64 letters, digits, "-" or "_"`,
        });
        continue;
      }
      const shown = scope === "project" ? relative(options.workspace, join(root, entry.name)) : file;
      const recipe: RecipeEntry = { name, file, scope, shown };
      const winner = byName.get(name);
      if (winner) {
        set.shadowed.push({ recipe, by: winner });
        continue;
      }
      byName.set(name, recipe);
      set.recipes.push(recipe);
    }
  }
  set.recipes.sort((a, b) => (a.scope === b.scope ? a.name.localeCompare(b.name) : a.scope === "project" ? -1 : 1));
  return set;
}

function order(name: string): number {
  return EXTENSIONS.indexOf(extname(name));
}

/** A recipe ready to run: parsed, with where it came from. */
export interface FoundRecipe {
  entry: RecipeEntry;
  recipe: Recipe;
  /** The repository brought it: its checks are the repository's commands, its settings need trust to loosen. */
  fromRepository: boolean;
}

/** Whether a `--recipe` word is a path rather than a name. */
export function isRecipePath(ref: string): boolean {
  return ref.includes("/") || ref.includes("\\") || EXTENSIONS.includes(extname(ref));
}

/**
 * `--recipe <name|file>`: a name among the recipes found, or a path. A path inside the workspace
 * is the repository's file (read as one: no link, one name); outside it, the person's. An unknown
 * name is a usage error listing the names there are; a file that does not parse is a config
 * error naming file, line and key.
 */
export function findRecipe(ref: string, options: { cwd: string; workspace: string; globalDir: string }): FoundRecipe {
  const entry = isRecipePath(ref) ? pathEntry(ref, options) : namedEntry(ref, options);
  return recipeOf(entry, options.workspace);
}

/**
 * A sub-recipe, by name only (`sub_recipes` are names): a path there is the recipe's error, so a
 * repository's recipe never has a file outside the workspace read and offered to the model.
 */
export function findNamedRecipe(name: string, options: { workspace: string; globalDir: string }): FoundRecipe {
  return recipeOf(namedEntry(name, options), options.workspace);
}

/** One found file, read and parsed (a config error names file, line and key). */
export function recipeOf(entry: RecipeEntry, workspace: string): FoundRecipe & { text: string } {
  const text = readRecipeText(entry, workspace);
  return { entry, recipe: parseRecipe(text, entry.shown), fromRepository: entry.scope === "project", text };
}

/** The line a top-level key is written on (1 when it is not found), for an error found after parsing. */
export function keyLine(text: string, key: string): number {
  const at = text.split("\n").findIndex((line) => line.startsWith(`${key}:`) || line.includes(`"${key}"`));
  return at < 0 ? 1 : at + 1;
}

function namedEntry(name: string, options: { workspace: string; globalDir: string }): RecipeEntry {
  if (!RECIPE_NAME.test(name))
    throw new UsageError(
      `"${name}" is not a recipe name (1-64 letters, digits, "-" or "_") nor a path to a recipe file`,
    );
  const set = discoverRecipes(options);
  const found = set.recipes.find((r) => r.name === name);
  if (found) return found;
  const known = set.recipes.map((r) => r.name);
  throw new UsageError(
    `no recipe "${name}" (${known.length > 0 ? `recipes: ${known.join(", ")}` : "none found"}; they live in .bosun/recipes/ or ${join(options.globalDir, "recipes")}/; bosun recipe list shows them)`,
  );
}

function pathEntry(ref: string, options: { cwd: string; workspace: string }): RecipeEntry {
  const file = resolve(options.cwd, ref);
  let real: string;
  try {
    // The folder's real place, the file itself as named: a link is judged below, not followed here.
    real = join(realpathSync(dirname(file)), basename(file));
  } catch {
    throw new UsageError(`no recipe file ${ref}`);
  }
  const inRepository = isInside(real, realpathSync(options.workspace));
  const name = basename(real, extname(real));
  return {
    name,
    file: real,
    scope: inRepository ? "project" : "path",
    shown: inRepository ? relative(options.workspace, real) || ref : real,
  };
}

/** The file's text: a repository's only as the regular file it is (no link, one name, inside the workspace). */
export function readRecipeText(entry: RecipeEntry, workspace: string): string {
  if (entry.scope !== "project") {
    try {
      const info = statSync(entry.file);
      if (!info.isFile()) throw new UsageError(`${entry.shown}: not a regular file`);
      if (info.size > RECIPE_MAX_BYTES) throw new UsageError(`${entry.shown}: over ${RECIPE_MAX_BYTES} bytes`);
      return readFileSync(entry.file, "utf8");
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`${entry.shown}: the recipe cannot be read: ${describe(error)}`);
    }
  }
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(entry.file);
  } catch (error) {
    throw new UsageError(`${entry.shown}: the recipe cannot be read: ${describe(error)}`);
  }
  const refuse = (why: string) => new UsageError(`${entry.shown}: refused: ${why}`);
  if (info.isSymbolicLink()) throw refuse("a link: a repository's recipe must be the file itself");
  if (!info.isFile()) throw refuse("not a regular file");
  if (info.nlink > 1) throw refuse("it has other names (hard links): it may be another file, such as .env");
  if (!isInside(entry.file, realpathSync(workspace))) throw refuse("outside the workspace");
  const read = readChecked({ real: entry.file, identity: { dev: info.dev, ino: info.ino } }, RECIPE_MAX_BYTES);
  if ("tooBig" in read) throw refuse(`${read.tooBig} bytes, over the limit of ${RECIPE_MAX_BYTES}`);
  if ("refused" in read) throw refuse(read.refused);
  return read.text;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
