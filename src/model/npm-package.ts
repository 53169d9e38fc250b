import { createRequire } from "node:module";
import { isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";
import { dataDir } from "../config/paths.js";

/** Where npm provider packages are looked for, after bosun's own node_modules. */
export function providersDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.BOSUN_HOME ? join(env.BOSUN_HOME, "providers") : join(dataDir(env), "providers");
}

/** The entry file of package `name`: from bosun's node_modules, else `<providersDir>/node_modules`; undefined when neither has it. */
export function resolveNpmPackage(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const from of [import.meta.url, pathToFileURL(join(providersDir(env), "package.json")).href]) {
    try {
      const path = createRequire(from).resolve(name);
      // A package resolves to a file; anything else (a built-in's bare name) would be read relative to the cwd.
      return isAbsolute(path) ? path : undefined;
    } catch {}
  }
  return undefined;
}

/** What the person reads when the package is missing: where it was looked for, and the command that installs it. */
export function npmPackageMissing(provider: string, name: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = providersDir(env);
  return `provider "${provider}": npm package ${name} is not installed in bosun's node_modules or ${join(dir, "node_modules")} (npm install --prefix ${dir} ${name})`;
}
