import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * A shell loop, run as a separate process, that keeps swapping names in `workspace` between a
 * real file or folder and a link to `outside`: `notes.md` ↔ a link to `outside/secret.txt`, and
 * `sub` (a folder holding `notes.md`) and `deep` (missing) ↔ links to `outside`. It is what a
 * background job racing the file tools does; the same script runs in scenario tests.
 */
export function flipScript(outside: string): string {
  const secret = JSON.stringify(join(outside, "secret.txt"));
  const out = JSON.stringify(outside);
  return [
    "while :; do",
    `  rm -rf notes.md; ln -s ${secret} notes.md`,
    `  rm -rf sub; ln -s ${out} sub; rm -rf deep; ln -s ${out} deep`,
    "  rm -rf notes.md; printf base > notes.md",
    "  rm -rf sub; mkdir sub; printf base > sub/notes.md; rm -rf deep",
    "done",
  ].join("\n");
}

/** Starts the flipping loop in `workspace`; stop it with `stop()`. */
export function startFlipper(workspace: string, outside: string): { child: ChildProcess; stop(): Promise<void> } {
  const child = spawn("bash", ["-c", flipScript(outside)], { cwd: workspace, stdio: "ignore", detached: true });
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      }),
  };
}

/** Every file below `folder` with its content and modification time: compare before and after a race. */
export function snapshot(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    const full = join(folder, name);
    const info = statSync(full);
    out[name] = info.isDirectory() ? "(folder)" : `${readFileSync(full, "utf8")} @${info.mtimeMs}`;
  }
  return out;
}
