import { ownFile } from "../../util/own-files.js";

/**
 * `bosun demo [--keep]`: runs the real `bosun run` on a bundled project with a scripted model
 * (no API key, nothing leaves the machine), then `bosun why` on that session. Exit 0 when the
 * run did exactly what the script expects; 1 with the reason otherwise.
 */
export async function demo(options: { keep?: boolean }): Promise<void> {
  const { runDemo } = await import("../../devtools/demo/run.js");
  // The CLI the person is running: the bin, dist/cli/main.js in bosun's install.
  await runDemo({ keep: options.keep ?? false, bin: ownFile("dist/cli/main.js") });
}
