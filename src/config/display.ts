import { formatKey, getAt, isPlainObject, parseKey } from "./keypath.js";
import type { LoadedConfig, Origin } from "./load.js";
import { leafPaths } from "./merge.js";

/**
 * How config values are shown to people. A value that came from a `{env:}`/`{file:}` reference
 * is shown as the reference; a secret-looking key written literally is shown redacted. This is
 * the only way config reaches the screen, so no command can print a secret by accident.
 */
const SECRET_KEY = /(api[-_]?key|secret|password|token|authorization|cookie)$/i;
export const REDACTED = "<redacted>";

export function shownValue(key: string, value: unknown, origin: Origin | undefined): unknown {
  if (origin?.raw !== undefined) return origin.raw;
  if (typeof value === "string" && SECRET_KEY.test(lastSegment(key))) return REDACTED;
  return value;
}

/** The last segment of a printed key: `retry.max_attempts` -> `max_attempts`. */
function lastSegment(key: string): string {
  try {
    return parseKey(key).pop() ?? key;
  } catch {
    return key;
  }
}

/**
 * The resolved config, every leaf passed through `shownValue`. Its shape is the config's own,
 * empty objects included, so any object key of the config is also an object key of this.
 */
export function shownConfig(loaded: LoadedConfig): Record<string, unknown> {
  const show = (value: unknown, path: string[]): unknown => {
    if (!isPlainObject(value)) {
      const key = formatKey(path);
      return shownValue(key, value, loaded.origins.get(key));
    }
    const out: Record<string, unknown> = {};
    for (const [segment, child] of Object.entries(value)) out[segment] = show(child, [...path, segment]);
    return out;
  };
  return show(loaded.config, []) as Record<string, unknown>;
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
