import { fileURLToPath } from "node:url";

/**
 * `bosun demo [--keep]`: runs the real `bosun run` on a bundled project with a scripted model
 * (no API key, nothing leaves the machine), then `bosun why` on that session. Exit 0 when the
 * run did exactly what the script expects; 1 with the reason otherwise.
 */
export async function demo(options: { keep?: boolean }): Promise<void> {
  const { runDemo } = await import("../../devtools/demo/run.js");
  // This file is dist/cli/commands/demo.js; the CLI the person is running is dist/cli/main.js.
  await runDemo({ keep: options.keep ?? false, bin: fileURLToPath(new URL("../main.js", import.meta.url)) });
}
