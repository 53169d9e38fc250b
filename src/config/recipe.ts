import { statSync } from "node:fs";
import { resolve } from "node:path";
import { isMap, isScalar, LineCounter, parseDocument } from "yaml";
import { ConfigError, UsageError } from "../errors.js";

/** A recipe parameter: typed, and either required or given a default. */
export interface RecipeParameter {
  name: string;
  type: "string" | "number" | "boolean" | "enum" | "file";
  description?: string;
  required: boolean;
  default?: string | number | boolean;
  values?: string[];
}

/** A recipe as read from its file (issue 20 item 1); checks are the file's commands, not the person's. */
export interface Recipe {
  file: string;
  title: string;
  description?: string;
  prompt: string;
  parameters: RecipeParameter[];
  agent?: string;
  model?: string;
  mode?: string;
  mcp?: string[];
  checks: string[];
  retries: number;
  response?: Record<string, unknown>;
  subRecipes: string[];
}

const KEYS = new Set([
  "title",
  "description",
  "prompt",
  "instructions",
  "parameters",
  "agent",
  "model",
  "mode",
  "mcp",
  "checks",
  "retries",
  "response",
  "sub_recipes",
]);
const TYPES = new Set(["string", "number", "boolean", "enum", "file"]);
/** The permission modes (permission/rules/modes.ts, a layer above config; recipe.test.ts keeps the two equal). */
export const RECIPE_MODES = ["approve", "smart", "auto", "chat"] as const;

/**
 * Reads one recipe (YAML, or JSON which YAML reads too). Every error names the file, the line
 * and the key, as config errors do; the parse is pure, so `bosun recipe validate` and a run agree.
 */
export function parseRecipe(text: string, file: string): Recipe {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
  const lineAt = (offset: number | undefined) => (offset === undefined ? 1 : counter.linePos(offset).line);
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    throw new ConfigError(`${file}:${lineAt(first?.pos[0])}: not a valid recipe: ${first?.message.split("\n")[0]}`);
  }
  const root = doc.contents;
  if (!isMap(root)) throw new ConfigError(`${file}:1: a recipe is an object with title and prompt`);
  const lineOf = (key: string): number => {
    const pair = root.items.find((item) => isScalar(item.key) && item.key.value === key);
    return lineAt(isScalar(pair?.key) ? pair.key.range?.[0] : root.range?.[0]);
  };
  const fail = (key: string, message: string): never => {
    throw new ConfigError(`${file}:${lineOf(key)}: ${key}: ${message}`);
  };
  for (const item of root.items) {
    const key = isScalar(item.key) ? String(item.key.value) : "";
    if (!KEYS.has(key)) fail(key, `unknown recipe key (known: ${[...KEYS].join(", ")})`);
  }
  const data = doc.toJS() as Record<string, unknown>;
  const text_ = (key: string): string | undefined => {
    const value = data[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value.trim() === "") fail(key, "must be a non-empty string");
    return value as string;
  };
  const list = (key: string): string[] => {
    const value = data[key] ?? [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v.trim() === "")) {
      fail(key, "must be a list of non-empty strings");
    }
    return value as string[];
  };
  const title = text_("title") ?? fail("title", "is required");
  if (data.prompt !== undefined && data.instructions !== undefined)
    fail("instructions", "give prompt or instructions, not both");
  const prompt = text_("prompt") ?? text_("instructions") ?? fail("prompt", "is required (or instructions)");
  const retries = data.retries ?? 2;
  if (typeof retries !== "number" || !Number.isInteger(retries) || retries < 0 || retries > 20) {
    fail("retries", "must be a whole number from 0 to 20");
  }
  const response = data.response;
  if (response !== undefined && (typeof response !== "object" || response === null || Array.isArray(response))) {
    fail("response", "must be a JSON Schema object");
  }
  const recipe: Recipe = {
    file,
    title,
    prompt,
    parameters: parametersOf(data.parameters, (message) => fail("parameters", message)),
    checks: list("checks"),
    retries: retries as number,
    subRecipes: list("sub_recipes"),
  };
  for (const key of ["description", "agent", "model", "mode"] as const) {
    const value = text_(key);
    if (value !== undefined) recipe[key] = value;
  }
  if (recipe.mode !== undefined && !(RECIPE_MODES as readonly string[]).includes(recipe.mode))
    fail("mode", `must be one of ${RECIPE_MODES.join(", ")}, not "${recipe.mode}"`);
  if (data.mcp !== undefined) recipe.mcp = list("mcp");
  if (response !== undefined) recipe.response = response as Record<string, unknown>;
  for (const name of placeholdersOf(prompt)) {
    if (!recipe.parameters.some((p) => p.name === name))
      fail("prompt", `uses {{ ${name} }}, which no parameter declares`);
  }
  return recipe;
}

function parametersOf(value: unknown, fail: (message: string) => never): RecipeParameter[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail("must be a list of {name, type, required|default}");
  const seen = new Set<string>();
  return (value as unknown[]).map((entry, index) => {
    if (typeof entry !== "object" || entry === null) fail(`entry ${index + 1} must be an object`);
    const e = entry as Record<string, unknown>;
    const name = e.name;
    if (typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      fail(`entry ${index + 1}: name must be a word`);
    const n = name as string;
    if (seen.has(n)) fail(`${n} is declared twice`);
    seen.add(n);
    const type = e.type ?? "string";
    if (typeof type !== "string" || !TYPES.has(type)) fail(`${n}: type must be one of ${[...TYPES].join(", ")}`);
    const param: RecipeParameter = { name: n, type: type as RecipeParameter["type"], required: e.required === true };
    if (typeof e.description === "string") param.description = e.description;
    if (type === "enum") {
      if (!Array.isArray(e.values) || e.values.length === 0 || e.values.some((v) => typeof v !== "string")) {
        fail(`${n}: an enum needs values, a list of strings`);
      }
      param.values = e.values as string[];
    }
    if (e.default !== undefined) {
      if (param.required) fail(`${n}: give required or a default, not both`);
      param.default = coerce(param, String(e.default), (m) => fail(`${n}: default ${m}`));
    } else if (!param.required) fail(`${n}: needs required: true or a default`);
    return param;
  });
}

function coerce(param: RecipeParameter, raw: string, fail: (message: string) => never): string | number | boolean {
  if (param.type === "number") {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) fail(`must be a number, not "${raw}"`);
    return n;
  }
  if (param.type === "boolean") {
    if (raw !== "true" && raw !== "false") fail(`must be true or false, not "${raw}"`);
    return raw === "true";
  }
  if (param.type === "enum" && !param.values?.includes(raw))
    fail(`must be one of ${param.values?.join(", ")}, not "${raw}"`);
  return raw;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

function placeholdersOf(prompt: string): string[] {
  return [...prompt.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}

/**
 * The `--param k=v` words as values: an unknown name, a bad value or a missing required
 * parameter is a usage error (exit 2) naming it.
 */
export function recipeValues(
  recipe: Recipe,
  words: readonly string[],
  cwd?: string,
): Map<string, string | number | boolean> {
  const values = new Map<string, string | number | boolean>();
  for (const word of words) {
    const eq = word.indexOf("=");
    if (eq <= 0) throw new UsageError(`--param takes name=value, not "${word}"`);
    const name = word.slice(0, eq);
    const param = recipe.parameters.find((p) => p.name === name);
    if (!param) throw new UsageError(`recipe "${recipe.title}" has no parameter "${name}"`);
    values.set(
      name,
      coerce(param, word.slice(eq + 1), (m) => {
        throw new UsageError(`--param ${name} ${m}`);
      }),
    );
  }
  for (const param of recipe.parameters) {
    if (values.has(param.name)) continue;
    if (param.default !== undefined) values.set(param.name, param.default);
    else throw new UsageError(`recipe "${recipe.title}" needs parameter "${param.name}" (--param ${param.name}=…)`);
  }
  if (cwd !== undefined) {
    for (const param of recipe.parameters) {
      if (param.type === "file") checkFile(param.name, String(values.get(param.name)), cwd);
    }
  }
  return values;
}

/**
 * A file parameter names a file that exists (relative to where bosun runs). Its path is what the
 * prompt gets, never its contents: the model reads it with its tools, under the read rules, so a
 * recipe (a repository's default: `~/.ssh/id_rsa`) cannot send a file past them.
 */
function checkFile(name: string, path: string, cwd: string): void {
  let isFile = false;
  try {
    isFile = statSync(resolve(cwd, path)).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) throw new UsageError(`--param ${name}: no file "${path}" (a file parameter names an existing file)`);
}

/**
 * The prompt with every `{{ name }}` replaced by its value, once, left to right: a value is data,
 * never looked at again, so a value holding `{{ other }}`, `` !`cmd` `` or `$(…)` stays as typed.
 * The result goes to the model as a message, never through a custom command's `` !`cmd` ``
 * expansion (src/input/), so nothing in a value can run.
 */
export function renderRecipe(recipe: Recipe, values: ReadonlyMap<string, string | number | boolean>): string {
  return recipe.prompt.replace(PLACEHOLDER, (_, name: string) => String(values.get(name) ?? ""));
}
