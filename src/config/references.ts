import { readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, relative, resolve } from "node:path";
import { formatKey, isPlainObject } from "./keypath.js";

/**
 * `{env:NAME}` and `{file:path}` inside string values are replaced at load time. The original
 * text is kept, so whatever prints config shows the reference, never the secret it resolved to.
 * A reference that cannot be resolved (variable unset, file missing) leaves its key unset —
 * also masking what lower layers said, so nothing falls through silently — and says so.
 * A layer may be confined to a folder for `{file:}` (a project's config may not read files
 * outside its repository: a cloned repository must not pull ~/.ssh into a request header).
 */
const REFERENCE = /\{(env|file):([^}]+)\}/g;

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
  fileRoot?: string,
): { data: unknown; substitutions: Map<string, Substitution> } {
  const substitutions = new Map<string, Substitution>();

  const substituteLeaf = (value: unknown): { value: unknown; changed: boolean; unresolved?: string } => {
    if (typeof value === "string") {
      let unresolved: string | undefined;
      let changed = false;
      const out = value.replace(REFERENCE, (_match, kind: string, name: string) => {
        changed = true;
        const found = kind === "env" ? { value: env[name.trim()] } : readReferencedFile(name.trim(), baseDir, fileRoot);
        if (found.value === undefined) {
          unresolved ??=
            kind === "env"
              ? `environment variable ${name.trim()} is not set`
              : `file ${name.trim()} ${"outside" in found ? `is outside ${fileRoot}, where this layer may read` : "cannot be read"}`;
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
        const result = substituteLeaf(item);
        changed ||= result.changed;
        unresolved ??= result.unresolved;
        return result.value;
      });
      return { value: items, changed, ...(unresolved ? { unresolved } : {}) };
    }
    return { value, changed: false };
  };

  const walk = (value: unknown, path: string[]): unknown => {
    if (!isPlainObject(value)) {
      const result = substituteLeaf(value);
      if (result.changed) {
        substitutions.set(formatKey(path), {
          raw: value,
          ...(result.unresolved ? { unresolved: result.unresolved } : {}),
        });
      }
      return result.unresolved ? undefined : result.value;
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const resolved = walk(child, [...path, key]);
      if (resolved !== undefined) out[key] = resolved;
    }
    return out;
  };

  return { data: walk(data, []), substitutions };
}

function readReferencedFile(
  path: string,
  baseDir: string,
  fileRoot: string | undefined,
): { value: string | undefined } | { value: undefined; outside: true } {
  const expanded = path.startsWith("~/") ? resolve(homedir(), path.slice(2)) : path;
  const full = isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
  try {
    if (fileRoot) {
      // Through symlinks: a link inside the repository must not lead out of it.
      const inside = relative(realpathSync(fileRoot), realpathSync(full));
      if (inside.startsWith("..") || isAbsolute(inside)) return { value: undefined, outside: true };
    }
    return { value: readFileSync(full, "utf8").replace(/\r?\n$/, "") };
  } catch {
    return { value: undefined };
  }
}
