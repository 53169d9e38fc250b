import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { ownFile } from "../util/own-files.js";

type Ui = Awaited<ReturnType<typeof import("./load.js").loadInteractiveUi>>;

/**
 * Loads the interactive terminal: the one-file bundle `npm run build` makes (a fraction of the
 * load time of Ink's many modules), or the modules themselves when running from source.
 *
 * Ink decides once, when it loads, whether it runs "in CI" (`CI` or `CONTINUOUS_INTEGRATION`
 * set), and there draws nothing until the app exits: at a real terminal, a blank screen. bosun
 * loads Ink only when stdin and stdout are terminals, so those variables are hidden while it
 * loads and put back before anything else runs; commands the session starts still see them.
 */
export async function openInteractiveUi(): Promise<Ui> {
  const hidden = ["CI", "CONTINUOUS_INTEGRATION"].flatMap((key) => {
    const value = process.env[key];
    if (value === undefined) return [];
    delete process.env[key];
    return [[key, value] as const];
  });
  try {
    const bundle = ownFile("dist/tui-bundle.js");
    const loader: typeof import("./load.js") = existsSync(bundle)
      ? await import(pathToFileURL(bundle).href)
      : await import("./load.js");
    return await loader.loadInteractiveUi();
  } finally {
    for (const [key, value] of hidden) process.env[key] = value;
  }
}
