import { formatKey, getAt, isPlainObject } from "./keypath.js";
import type { LoadedConfig, Origin } from "./load.js";
import { leafPaths } from "./merge.js";

/**
 * How config values are shown to people. A value that came from a `{env:}`/`{file:}` reference
 * is shown as the reference; a secret-looking key written literally is shown redacted. This is
 * the only way config reaches the screen, so no command can print a secret by accident.
 */
const SECRET_KEY = /(api[-_]?key|secret|password|token|authorization)$/i;
export const REDACTED = "<redacted>";

export function shownValue(key: string, value: unknown, origin: Origin | undefined): unknown {
  if (origin?.raw !== undefined) return origin.raw;
  const last =
    key
      .split(/[.[\]"]+/)
      .filter(Boolean)
      .pop() ?? key;
  if (typeof value === "string" && SECRET_KEY.test(last)) return REDACTED;
  return value;
}

/** The resolved config, every leaf passed through `shownValue`. */
export function shownConfig(loaded: LoadedConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of leafPaths(loaded.config)) {
    if (path.length === 0) continue;
    const key = formatKey(path);
    let target = out;
    for (const segment of path.slice(0, -1)) {
      const next = target[segment];
      target[segment] = isPlainObject(next) ? next : {};
      target = target[segment] as Record<string, unknown>;
    }
    const leaf = path[path.length - 1] as string;
    target[leaf] = shownValue(key, getAt(loaded.config, path), loaded.origins.get(key));
  }
  return out;
}

export interface OriginRow {
  key: string;
  value: unknown;
  layer: string;
  source: string;
  file?: string;
  line?: number;
}

/** One row per resolved leaf: its shown value and the layer, file and line that set it. */
export function originRows(loaded: LoadedConfig): OriginRow[] {
  return leafPaths(loaded.config)
    .filter((path) => path.length > 0)
    .map((path) => {
      const key = formatKey(path);
      const origin = loaded.origins.get(key);
      return {
        key,
        value: shownValue(key, getAt(loaded.config, path), origin),
        layer: origin?.layer ?? "default",
        source: origin?.source ?? "built-in",
        ...(origin?.file ? { file: origin.file } : {}),
        ...(origin?.line ? { line: origin.line } : {}),
      };
    });
}

/** `layer<TAB>source[:line]<TAB>key=value`, like `git config --show-origin`. */
export function formatOriginRow(row: OriginRow): string {
  const where = row.line ? `${row.source}:${row.line}` : row.source;
  return `${row.layer}\t${where}\t${row.key}=${formatScalar(row.value)}`;
}

export function formatScalar(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
