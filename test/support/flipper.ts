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

/**
 * The same loop as `flipScript`, in a Node process: each swap takes microseconds instead of a
 * fork, so a unit test's window between a check and a write is crossed often.
 */
function nodeFlipper(outside: string): string {
  const secret = JSON.stringify(join(outside, "secret.txt"));
  const out = JSON.stringify(outside);
  return `
    const fs = require("node:fs");
    // Every step may fail (a write lands in a folder being removed): the loop goes on, as bash's would.
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

/** Starts the flipping loop in `workspace` (in bash, or in Node for speed); stop it with `stop()`. */
export function startFlipper(
  workspace: string,
  outside: string,
  how: "bash" | "node" = "node",
): { child: ChildProcess; stop(): Promise<void> } {
  const [command, args] =
    how === "bash" ? ["bash", ["-c", flipScript(outside)]] : [process.execPath, ["-e", nodeFlipper(outside)]];
  const child = spawn(command as string, args as string[], { cwd: workspace, stdio: "ignore", detached: true });
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
