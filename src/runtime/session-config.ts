import { type LoadedConfig, whereSet } from "../config/load.js";
import type { ToolLimits } from "../contracts/tools.js";
import { OutputFolder } from "../tools/saved-output.js";
import { overflowRoot } from "./authority.js";

/*
 * What a live session reads from its config beyond the seats' own deciders: tool limits, saved
 * output storage, and where keys were set (for the decisions that name them).
 */

/** The tools' limits from config: the model's calls and a repository's command spans alike. */
export function toolLimits(config: LoadedConfig): ToolLimits {
  return {
    shellTimeoutMs: config.config.shell.timeout_ms,
    shellMaxTimeoutMs: config.config.shell.max_timeout_ms,
    maxResults: 200,
  };
}

/** Config storage: the saved outputs' cap and age. */
export function storage(config: LoadedConfig): { maxBytes: number; maxAgeDays: number } {
  return {
    maxBytes: config.config.storage.output_max_mb * 1024 * 1024,
    maxAgeDays: config.config.storage.output_max_age_days,
  };
}

/** This session's saved-output folder under the data folder, capped by config storage.output_max_mb. */
export function savedOutputs(config: LoadedConfig, sessionId: string): OutputFolder {
  return new OutputFolder(overflowRoot(), sessionId, storage(config).maxBytes);
}

/** Where `key` was set, unless by the built-in defaults. */
export function setWhere(config: LoadedConfig, key: string): string | undefined {
  return config.origins.get(key)?.layer === "default" ? undefined : whereSet(config, key);
}

/** Where `shell.sandbox` was set, for the exec.sandbox decision. */
export function sandboxOrigin(config: LoadedConfig): { sandboxSource?: string } {
  if (config.origins.get("shell.sandbox")?.layer === "default") return {};
  const where = whereSet(config, "shell.sandbox");
  return where ? { sandboxSource: where } : {};
}

/** Environment variables the config's `{env:NAME}` references read (resolved or not). */
export function referencedVariables(config: LoadedConfig): string[] {
  const names = new Set<string>();
  for (const ref of [...config.references, ...config.unresolved]) {
    for (const match of JSON.stringify(ref.raw).matchAll(/\{env:\s*([^}\s]+)\s*\}/g)) names.add(match[1] as string);
  }
  return [...names];
}
