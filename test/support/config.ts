import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FlagValue, type LoadedConfig, loadConfig } from "../../src/config/load.js";

/**
 * A LoadedConfig built the real way (through every layer) from inline config, for model tests.
 * The global layer points at an empty temporary BOSUN_HOME so the user's own config never leaks in.
 */
export function configFrom(
  content: unknown = {},
  options: { flags?: FlagValue[]; env?: NodeJS.ProcessEnv } = {},
): LoadedConfig {
  const home = mkdtempSync(join(tmpdir(), "bosun-model-"));
  return loadConfig({
    cwd: home,
    env: { BOSUN_HOME: home, BOSUN_CONFIG_CONTENT: JSON.stringify(content), ...options.env },
    ...(options.flags ? { flags: options.flags } : {}),
  });
}
