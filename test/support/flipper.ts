import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * A loop, for a separate Node process (CommonJS), that keeps swapping names in its working folder
 * between a real file or folder and a link to `outside`: `notes.md` ↔ a link to
 * `outside/secret.txt`, `sub` (a folder holding `notes.md`) ↔ a link to `outside`, and `deep`
 * missing ↔ a link to `outside`. It is what a background job racing the file tools does; each
 * swap takes microseconds (no fork), so even a short window between a check and a write is
 * crossed often. Scenario tests run it as a background shell job (`node flip.cjs`).
 */
export function flipperSource(outside: string): string {
  const secret = JSON.stringify(join(outside, "secret.txt"));
  const out = JSON.stringify(outside);
  return `
    const fs = require("node:fs");
    // Every step may fail (a write lands in a folder being removed): the loop goes on.
    const quiet = (f) => { try { f(); } catch {} };
    const gone = (p) => quiet(() => fs.rmSync(p, { recursive: true, force: true }));
    for (;;) {
      gone("notes.md"); quiet(() => fs.symlinkSync(${secret}, "notes.md"));
      gone("sub"); quiet(() => fs.symlinkSync(${out}, "sub"));
      gone("deep"); quiet(() => fs.symlinkSync(${out}, "deep"));
      gone("notes.md"); quiet(() => fs.writeFileSync("notes.md", "base", { flag: "wx" }));
      gone("sub"); quiet(() => { fs.mkdirSync("sub"); fs.writeFileSync("sub/notes.md", "base", { flag: "wx" }); });
      gone("deep");
    }`;
}

/** Starts the flipping loop in `workspace`; stop it with `stop()`. */
export function startFlipper(workspace: string, outside: string): { child: ChildProcess; stop(): Promise<void> } {
  const child = spawn(process.execPath, ["-e", flipperSource(outside)], {
    cwd: workspace,
    stdio: "ignore",
    detached: true,
  });
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
