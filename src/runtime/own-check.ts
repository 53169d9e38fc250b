import { spawn } from "node:child_process";

/** Most characters of a check's output kept (its end: where a test runner says what failed). */
const OUTPUT_LIMIT = 64_000;

/**
 * A check from the person's own config: run as their hooks are (theirs, not judged), in the
 * work tree, bounded by `timeoutMs`; one that overruns is killed and counts as not run.
 */
export function runOwnCheck(
  command: string,
  cwd: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ output: string; exitCode: number | null }> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn("/bin/sh", ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const add = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_LIMIT);
    };
    child.stdout.on("data", add);
    child.stderr.on("data", add);
    const kill = (why: string) => {
      output += `\n[${why}]`;
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      kill(`timed out after ${timeoutMs} ms`);
    }, timeoutMs);
    const onAbort = () => {
      killed = true;
      kill("cancelled");
    };
    signal.addEventListener("abort", onAbort, { once: true });
    const finish = (exitCode: number | null) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve({ output, exitCode: killed ? null : exitCode });
    };
    child.on("error", (error) => {
      output += String(error.message);
      finish(null);
    });
    child.on("close", (code) => finish(code));
  });
}
