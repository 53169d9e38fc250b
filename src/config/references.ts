import { readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, relative, resolve } from "node:path";
import { formatKey, isPlainObject } from "./keypath.js";

/**
 * `{env:NAME}` and `{file:path}` inside string values are replaced at load time. The original
 * text is kept, so whatever prints config shows the reference, never the secret it resolved to.
 * A reference that cannot be resolved (variable unset, file missing or refused) leaves its key
 * unset — also masking what lower layers said, so nothing falls through silently — and says so.
 * Strings inside arrays of objects (a hook's `command`) are never resolved: a hook's command is
 * shell text, passed as written.
 *
 * What a repository's config (the project layer) may read, since whoever wrote it is anyone:
 * - `{file:}` only inside its repository (a cloned repository must not pull ~/.ssh into a request
 *   header), and once the run's rules exist, only what they allow outright (the read check of
 *   permission/gate/read-check.ts: a `{file:.env}` stays unresolved; your own config's references
 *   pass it as your approval of an ask, never of a deny).
 * - `{env:NAME}` of a variable bosun withholds from its tools (provider keys, `*_API_KEY`,
 *   `*_TOKEN`, …, and whatever your own config reads by `{env:}`) only where bosun itself uses
 *   the value and shows it to nobody: a provider's `apiKey`, `baseURL` and `headers`, and an MCP
 *   server's `env` and `headers` (CREDENTIAL_KEYS). Those keys apply only once you trust the repository's
 *   config (permission/trust/project-trust.ts). Everywhere else — an agent's prompt or description,
 *   instructions.files, an MCP server's command and args (shown in decisions and in `ps`), rule
 *   patterns — it stays unresolved, with the reason, trusted or not: a repository must never
 *   expand your keys into text the model, a log or another program sees.
 * - any other `{env:NAME}`: what your tools may see anyway.
 * - nothing at all in `instructions.files`: its paths are the repository's own, and a URL there is
 *   fetched with no web rule asked, so a reference would carry what it read to any host.
 */
// The name holds no "{": each try then stops at the next one, so a long value of many unclosed
// "{env:" stays linear (with [^}] each try ran to the end: 200 kB took 20 s).
const REFERENCE = /\{(env|file):([^{}]+)\}/g;

/** Keys whose values bosun uses itself and never shows: where a repository may expand a withheld variable, once trusted. */
export function isCredentialKey(path: readonly string[]): boolean {
  const [top, , key] = path;
  if (top === "provider") return path.length === 3 ? key === "apiKey" || key === "baseURL" : key === "headers";
  // The search API's key: bosun sends it to the search backend only.
  if (top === "web") return path.length === 3 && path[1] === "search" && path[2] === "api_key";
  // An MCP server's env and headers: what it is given to reach your account, never shown.
  return top === "mcp" && (key === "env" || key === "headers") && path.length === 4;
}

/** How a layer's references are read. */
export interface ReferenceRules {
  /** `{file:}` must stay inside this folder (through links). */
  fileRoot?: string;
  /** Reads a referenced file at `key`, or says why it may not (the run's read check); default: read it. */
  readFile?: (path: string, key: readonly string[]) => { value: string } | { refused: string };
  /** Why `{env:name}` may not expand at `key`; undefined when it may. */
  envRefusal?: (name: string, key: readonly string[]) => string | undefined;
  /** Why no reference at all may expand at `key`; undefined when they may. */
  keyRefusal?: (key: readonly string[]) => string | undefined;
}

/** Where a repository's config may hold no reference at all. */
export function repositoryKeyRule(key: readonly string[]): string | undefined {
  return key[0] === "instructions" && key[1] === "files"
    ? "is not expanded in a repository's instructions.files (a URL there is fetched with no web rule asked)"
    : undefined;
}

/** The `{env:}` rule of a repository's config: a withheld variable expands only into credential keys. */
export function repositoryEnvRule(withheld: (name: string) => boolean): NonNullable<ReferenceRules["envRefusal"]> {
  return (name, key) =>
    withheld(name) && !isCredentialKey(key)
      ? "is withheld from a repository's config: it expands only into a provider's apiKey, baseURL or headers or an MCP server's env, once the repository is trusted"
      : undefined;
}

export interface Substitution {
  /** The leaf as written, references and all. */
  raw: unknown;
  /** Why the leaf could not be resolved; the leaf is dropped from the layer. */
  unresolved?: string;
}

export function resolveReferences(
  data: unknown,
  baseDir: string,
  env: NodeJS.ProcessEnv,
  rules: ReferenceRules = {},
): { data: unknown; substitutions: Map<string, Substitution> } {
  const substitutions = new Map<string, Substitution>();
  const { fileRoot } = rules;

  const resolveOne = (kind: string, name: string, key: readonly string[]): { value: string } | { reason: string } => {
    const nowhere = rules.keyRefusal?.(key);
    if (nowhere) return { reason: `${kind === "env" ? "environment variable" : "file"} ${name} ${nowhere}` };
    if (kind === "env") {
      const refused = rules.envRefusal?.(name, key);
      if (refused) return { reason: `environment variable ${name} ${refused}` };
      const value = env[name];
      return value === undefined ? { reason: `environment variable ${name} is not set` } : { value };
    }
    const found = referencedFile(name, baseDir, fileRoot);
    if (found === "outside") return { reason: `file ${name} is outside ${fileRoot}, where this layer may read` };
    if (found === undefined) return { reason: `file ${name} cannot be read` };
    const read = (rules.readFile ?? readPlain)(found, key);
    if ("refused" in read) {
      return { reason: rules.readFile ? `file ${name} is not read: ${read.refused}` : `file ${name} cannot be read` };
    }
    return { value: read.value.replace(/\r?\n$/, "") };
  };

  const substituteLeaf = (
    value: unknown,
    key: readonly string[],
  ): { value: unknown; changed: boolean; unresolved?: string } => {
    if (typeof value === "string") {
      let unresolved: string | undefined;
      let changed = false;
      const out = value.replace(REFERENCE, (_match, kind: string, name: string) => {
        changed = true;
        const found = resolveOne(kind, name.trim(), key);
        if ("reason" in found) {
          unresolved ??= found.reason;
          return "";
        }
        return found.value;
      });
      return { value: out, changed, ...(unresolved ? { unresolved } : {}) };
    }
    if (Array.isArray(value)) {
      let changed = false;
      let unresolved: string | undefined;
      const items = value.map((item) => {
        const result = substituteLeaf(item, key);
        changed ||= result.changed;
        unresolved ??= result.unresolved;
        return result.value;
      });
      return { value: items, changed, ...(unresolved ? { unresolved } : {}) };
    }
    return { value, changed: false };
  };

  // Returns the value itself where nothing in it changed, so a large layer without references is
  // not copied. `path` is one array pushed and popped on the way; what keeps a key gets a copy.
  const walk = (value: unknown, path: string[]): unknown => {
    // Most leaves hold no reference: returned as they are, at the cost of one search.
    if (typeof value !== "string" && !Array.isArray(value) && !isPlainObject(value)) return value;
    if (typeof value === "string" && !value.includes("{")) return value;
    if (!isPlainObject(value)) {
      const key = [...path];
      const result = substituteLeaf(value, key);
      if (!result.changed) return value;
      substitutions.set(formatKey(key), {
        raw: value,
        ...(result.unresolved ? { unresolved: result.unresolved } : {}),
      });
      return result.unresolved ? undefined : result.value;
    }
    const keys = Object.keys(value);
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const child = value[key];
      path.push(key);
      const resolved = walk(child, path);
      path.pop();
      if (!out && resolved !== child) {
        out = {};
        for (const before of keys.slice(0, i)) out[before] = value[before];
      }
      if (out && resolved !== undefined) out[key] = resolved;
    }
    return out ?? value;
  };

  return { data: walk(data, []), substitutions };
}

/** The absolute path a reference names; "outside" when it leads (through links) out of `fileRoot`; undefined when it is not there. */
function referencedFile(path: string, baseDir: string, fileRoot: string | undefined): string | "outside" | undefined {
  const expanded = path.startsWith("~/") ? resolve(homedir(), path.slice(2)) : path;
  const full = isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
  try {
    // Through symlinks: a link inside the repository must not lead out of it.
    const inside = fileRoot ? relative(realpathSync(fileRoot), realpathSync(full)) : "";
    return inside.startsWith("..") || isAbsolute(inside) ? "outside" : full;
  } catch {
    return undefined;
  }
}

function readPlain(path: string): { value: string } | { refused: string } {
  try {
    return { value: readFileSync(path, "utf8") };
  } catch {
    return { refused: "cannot be read" };
  }
}
