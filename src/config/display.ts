import { appendKey, formatKey, getAt, isPlainObject, parseKey } from "./keypath.js";
import type { LoadedConfig, Origin } from "./load.js";
import { leafPaths } from "./merge.js";
import { isPureReference, isSecretPath, redactUrlPasswords } from "./secrets.js";

/**
 * How config values are shown to people. A secret-looking value (see secrets.ts) is shown only
 * as its `{env:}`/`{file:}` reference when it is exactly one, else redacted; other values that
 * came from references are shown as written; passwords in URLs are always masked. This is the
 * only way config reaches the screen, so no command can print a secret by accident.
 */
export const REDACTED = "<redacted>";

export function shownValue(
  key: string,
  value: unknown,
  origin: Origin | undefined,
  path: readonly string[] = segments(key),
): unknown {
  const written = origin?.raw !== undefined ? origin.raw : value;
  if (isSecretPath(path) && typeof written === "string") {
    return isPureReference(written) ? written : REDACTED;
  }
  return maskUrls(written);
}

function maskUrls(value: unknown): unknown {
  if (typeof value === "string") return redactUrlPasswords(value);
  if (Array.isArray(value)) return value.map(maskUrls);
  return value;
}

function segments(key: string): string[] {
  try {
    return parseKey(key);
  } catch {
    return [key];
  }
}

/**
 * The resolved config, every leaf passed through `shownValue`. Its shape is the config's own,
 * empty objects included, so any object key of the config is also an object key of this.
 */
export function shownConfig(loaded: LoadedConfig): Record<string, unknown> {
  // One path array, pushed and popped, and each key printed from its parent's: once per leaf.
  const path: string[] = [];
  const show = (value: unknown, key: string): unknown => {
    if (!isPlainObject(value)) return shownValue(key, value, loaded.origins.get(key), path);
    const out: Record<string, unknown> = {};
    for (const segment of Object.keys(value)) {
      path.push(segment);
      out[segment] = show(value[segment], appendKey(key, segment));
      path.pop();
    }
    return out;
  };
  return show(loaded.config, "") as Record<string, unknown>;
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
        value: shownValue(key, getAt(loaded.config, path), origin, path),
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
