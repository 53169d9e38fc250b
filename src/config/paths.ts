import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where bosun keeps its own files. `BOSUN_HOME` moves all of them under one folder
 * (tests always set it); otherwise the XDG base directories are used.
 */
export function globalConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BOSUN_HOME) return join(env.BOSUN_HOME, "bosun.json");
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "bosun", "bosun.json");
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BOSUN_HOME) return join(env.BOSUN_HOME, "data");
  return join(env.XDG_DATA_HOME || join(homedir(), ".local", "share"), "bosun");
}
