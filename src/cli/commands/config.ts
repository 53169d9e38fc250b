import { formatOriginRow, originRows, shownConfig, shownValue } from "../../config/display.js";
import { formatKey, getAt, isPlainObject, parseKey } from "../../config/keypath.js";
import { type FlagValue, type LoadedConfig, loadConfig } from "../../config/load.js";
import { allKnownKeys } from "../../config/schema-walk.js";
import { BosunError, UsageError } from "../../errors.js";
import { closest } from "../../util/closest.js";
import { json, out, warn } from "../output.js";
import { instructionRows } from "./config-instructions.js";
import { formatSourceRow, sourceRows } from "./config-sources.js";

interface ConfigFlags {
  model?: string;
}

/** The flag layer shared by every command that loads config. */
export function flagLayer(flags: ConfigFlags): FlagValue[] {
  return flags.model !== undefined ? [{ flag: "--model", path: ["model"], value: flags.model }] : [];
}

export function loadForCommand(flags: ConfigFlags = {}): LoadedConfig {
  const loaded = loadConfig({ cwd: process.cwd(), flags: flagLayer(flags) });
  for (const ref of loaded.unresolved) {
    const left = loaded.origins.get(ref.key)?.layer === "default" ? "its default applies" : "the key is left unset";
    warn(`${ref.source}${ref.line ? `:${ref.line}` : ""}: ${ref.key}: ${ref.reason}; ${left}`);
  }
  return loaded;
}

export async function showConfig(options: ConfigFlags & { origin?: boolean; json?: boolean }): Promise<void> {
  const loaded = loadForCommand(options);
  if (options.origin) {
    const rows = originRows(loaded);
    if (options.json) json(rows);
    else {
      for (const row of rows) out(formatOriginRow(row));
      // Then the files picked up that set no key of their own: commands, and what of a file was left out.
      for (const row of sourceRows(loaded, process.cwd())) out(formatSourceRow(row));
      for (const row of await instructionRows(loaded, process.cwd())) out(formatSourceRow(row));
    }
    return;
  }
  json(shownConfig(loaded));
}

export function getConfig(key: string, options: ConfigFlags): void {
  let path: string[];
  try {
    path = parseKey(key);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const loaded = loadForCommand(options);
  const value = getAt(loaded.config, path);
  if (value === undefined) {
    if (!isKnownKey(path)) {
      const known = allKnownKeys().map((p) => p.join("."));
      const [suggestion] = closest(path.join("."), known, 1);
      throw new UsageError(`unknown key "${key}"${suggestion ? ` — did you mean "${suggestion}"?` : ""}`);
    }
    throw new BosunError(`${formatKey(path)} is not set`, 1);
  }
  const formatted = formatKey(path);
  // Objects are read from the shown config so their secret leaves stay references.
  const shown = isPlainObject(value)
    ? getAt(shownConfig(loaded), path)
    : shownValue(formatted, value, loaded.origins.get(formatted));
  // Never fall back to the raw value: what cannot be shown safely is not shown.
  if (shown === undefined) throw new Error(`${formatted} has a value but no printable form`);
  out(typeof shown === "string" ? shown : JSON.stringify(shown, null, 2));
}

function isKnownKey(path: string[]): boolean {
  return allKnownKeys().some((known) => {
    if (path.length > known.length) return false;
    return path.every((segment, i) => known[i] === "*" || known[i] === segment);
  });
}
