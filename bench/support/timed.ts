import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

export interface Timed {
  /** performance.now() at spawn. */
  start: number;
  /** Spawn → exit, in milliseconds (the wait for the output pipes to close is not counted). */
  ms: number;
  code: number | null;
  stderr: string;
}

/** Spawns a process with stdout ignored and waits for it; the one timing every benchmark uses. */
export function timedSpawn(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const ms = performance.now() - start;
      child.on("close", () => resolve({ start, ms, code, stderr }));
    });
  });
}
