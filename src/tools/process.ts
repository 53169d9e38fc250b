import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";

/** How long a process group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;
/** How much merged output is kept in memory; beyond it only the tail is kept. */
export const OUTPUT_LIMIT_CHARS = 1_000_000;
/** How long to wait for the output pipe to drain once the shell has exited. */
const DRAIN_MS = 250;

/** Sends `signal` to every process in group `pgid`; false when the group no longer exists. */
export function killGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ESRCH") return false;
    // EPERM: a member we may not signal (it changed user); the group still exists.
    if (code === "EPERM") return true;
    throw error;
  }
}

/** Whether any process of group `pgid` is still alive (zombies waiting to be reaped count). */
export function groupAlive(pgid: number): boolean {
  return killGroup(pgid, 0);
}

/** Keeps merged output up to `limit` characters; beyond that, only the most recent `limit`. */
export class OutputBuffer {
  private chunks: string[] = [];
  private length = 0;
  /** Characters dropped from the start because the output outgrew the limit. */
  dropped = 0;

  constructor(private readonly limit = OUTPUT_LIMIT_CHARS) {}

  append(chunk: string): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length > this.limit * 2) this.compact();
  }

  /** The kept output, with a first line saying how much was dropped, if any. */
  text(): string {
    this.compact();
    const body = this.chunks.join("");
    return this.dropped > 0 ? `[${this.dropped} earlier characters of output dropped]\n${body}` : body;
  }

  private compact(): void {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join("")];
    const only = this.chunks[0] ?? "";
    if (only.length > this.limit) {
      this.dropped += only.length - this.limit;
      this.chunks = [only.slice(only.length - this.limit)];
    }
    this.length = this.chunks[0]?.length ?? 0;
  }
}

export interface ProcessEnd {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Why the process could not be started. */
  error?: string;
  /** The shell exited but left processes in its group; they were killed. */
  strays: boolean;
  durationMs: number;
}

export interface ShellProcess {
  /** Process id of the shell, which is also its process group id. Undefined if spawning failed. */
  readonly pid: number | undefined;
  readonly output: OutputBuffer;
  /** Settles once the shell has exited and its output has drained; never rejects. */
  readonly finished: Promise<ProcessEnd>;
  /** Kills the whole group: SIGTERM now, SIGKILL after KILL_GRACE_MS if any member is still alive. */
  terminate(): void;
}

export interface SpawnShellOptions {
  cwd: string;
  /** When false, the child does not keep Node's event loop alive (background jobs). Default true. */
  keepAlive?: boolean;
}

/** Process groups started here and not yet finished: killed if Node exits first. */
const live = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const pgid of live) killGroup(pgid, "SIGTERM");
  });
}

/**
 * Runs `bash -c command` in its own process group with stdin closed, stdout and stderr merged at the
 * file-descriptor level (so their order is the order they were written), and `BOSUN_AGENT=1`.
 * When the shell exits, any process it left in its group is killed: a call owns its whole group.
 */
export function spawnShell(command: string, options: SpawnShellOptions): ShellProcess {
  const started = Date.now();
  const output = new OutputBuffer();
  let child: ChildProcess;
  // The outer bash redirects stderr into stdout and replaces itself with the bash that runs the
  // command (same pid, same group), so `$0`, line numbers and error messages are those of `bash -c`.
  try {
    child = spawn("bash", ["-c", 'exec bash -c "$1" 2>&1', "bash", command], {
      cwd: options.cwd,
      env: { ...process.env, BOSUN_AGENT: "1" },
      stdio: ["ignore", "pipe", "ignore"],
      detached: true,
    });
  } catch (error) {
    const end: ProcessEnd = {
      exitCode: null,
      signal: null,
      error: startError(error, options.cwd),
      strays: false,
      durationMs: 0,
    };
    return { pid: undefined, output, finished: Promise.resolve(end), terminate: () => {} };
  }

  const pid = child.pid;
  let killTimer: NodeJS.Timeout | undefined;
  const terminate = (): void => {
    if (pid === undefined || killTimer) return;
    if (!killGroup(pid, "SIGTERM")) return;
    killTimer = setTimeout(() => {
      if (groupAlive(pid)) killGroup(pid, "SIGKILL");
    }, KILL_GRACE_MS);
    killTimer.unref();
  };

  if (pid !== undefined) {
    live.add(pid);
    installExitHook();
  }
  if (options.keepAlive === false) {
    child.unref();
    (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  }
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => output.append(chunk));

  const finished = new Promise<ProcessEnd>((resolve) => {
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let strays = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const settle = (error?: string): void => {
      if (settled) return;
      settled = true;
      if (drainTimer) clearTimeout(drainTimer);
      if (pid !== undefined) {
        live.delete(pid);
        if (killTimer && !groupAlive(pid)) clearTimeout(killTimer);
      }
      child.stdout?.destroy();
      const end: ProcessEnd = {
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        strays,
        durationMs: Date.now() - started,
      };
      if (error !== undefined) end.error = error;
      resolve(end);
    };

    child.on("error", (error) => {
      // Spawn failures come here without an exit; errors after exit do not matter.
      if (!exit) settle(startError(error, options.cwd));
    });
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      if (pid !== undefined && groupAlive(pid)) {
        strays = true;
        terminate();
      }
      // Wait for the pipe to drain; a process that left the group may hold it open forever.
      drainTimer = setTimeout(() => settle(), strays ? KILL_GRACE_MS + DRAIN_MS : DRAIN_MS);
      drainTimer.unref();
    });
    child.once("close", () => {
      if (exit) settle();
    });
  });

  return { pid, output, finished, terminate };
}

function startError(error: unknown, cwd: string): string {
  if (!existsSync(cwd)) return `working directory ${cwd} does not exist`;
  return `could not start bash: ${error instanceof Error ? error.message : String(error)}`;
}
