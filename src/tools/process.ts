import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeSync,
} from "node:fs";
import { basename, join } from "node:path";
import type { Confinement } from "../contracts/confinement.js";
import type { SavedOutputs } from "../contracts/tools.js";
import { bwrapProgram, confinedArgv } from "../permission/gate/sandbox.js";
import { toolEnvironment } from "../util/withheld-env.js";
import { formatBytes, utf8Head } from "./bound.js";

/** How long a process group gets between SIGTERM and SIGKILL (timeouts and cancel, while bosun runs). */
export const KILL_GRACE_MS = 2000;
/** How much merged output is kept in memory; beyond it only the tail is kept. */
export const OUTPUT_LIMIT_CHARS = 1_000_000;
/** Most characters a shell call saves to its output file; a runaway command must not fill the disk. */
export const SAVED_OUTPUT_LIMIT_CHARS = 100_000_000;
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

// ---- Output ------------------------------------------------------------------------------------

export interface SaveOutputOptions {
  /** The session's saved-output folder (under the data folder, never /tmp) and the cap on them all. */
  folder: SavedOutputs;
  /** Most characters written to the file; default SAVED_OUTPUT_LIMIT_CHARS. */
  maxFileChars?: number;
}

/** Bytes the saved outputs' cap is asked for at a time: a folder listing per 8 MB written, not per chunk. */
const ROOM_STEP_BYTES = 8 * 1024 * 1024;

/**
 * Keeps merged output up to `limit` characters in memory; beyond that, only the most recent `limit`.
 * With `save`, output that outgrows the limit is also written, from its first character, to a file
 * in `save.folder` (mode 0600, the folder 0700) as it arrives, up to `save.maxFileChars` and as long
 * as every saved output together stays under the folder's cap (the oldest others are deleted first).
 */
export class OutputBuffer {
  private chunks: string[] = [];
  private length = 0;
  /** Characters appended in all. */
  total = 0;
  /** The file the output is saved to, once it outgrew the limit (with `save`). */
  filePath: string | undefined;
  /** Why the output could not be saved. */
  fileError: string | undefined;
  /** Characters written to the file. */
  fileChars = 0;
  /** Why the file stopped short of the output though nothing failed (the saved outputs' cap). */
  fileStop: string | undefined;
  private fd: number | undefined;
  private readonly maxFileChars: number;
  /** Bytes the file may still grow by before the cap is asked again. */
  private room = 0;

  constructor(
    private readonly limit = OUTPUT_LIMIT_CHARS,
    private readonly save?: SaveOutputOptions,
  ) {
    this.maxFileChars = save?.maxFileChars ?? SAVED_OUTPUT_LIMIT_CHARS;
  }

  /** Characters dropped from the start because the output outgrew the limit. */
  get dropped(): number {
    return Math.max(0, this.total - this.limit);
  }

  /** Whether the file holds the whole output (so far). */
  get complete(): boolean {
    return this.filePath !== undefined && this.fileError === undefined && this.fileChars === this.total;
  }

  append(chunk: string): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    this.total += chunk.length;
    if (this.save) {
      if (this.fd !== undefined) this.write(chunk);
      // Nothing has been dropped yet (that happens only past the limit): the chunks are all the output.
      else if (this.total > this.limit && this.filePath === undefined && this.fileError === undefined) this.open();
    }
    if (this.length > this.limit * 2) this.compact();
  }

  /** The kept output, without any note. */
  kept(): string {
    this.compact();
    return this.chunks[0] ?? "";
  }

  /** The kept output, with a first line saying what was dropped and where it is, if anything was. */
  text(): string {
    const body = this.kept();
    if (this.dropped === 0) return body;
    if (!this.save) return `[${this.dropped} earlier characters of output dropped]\n${body}`;
    return `[${this.droppedNote()}]\n${body}`;
  }

  /** One sentence or two on what the kept output lacks and where it is; undefined when nothing was dropped. */
  droppedNote(): string | undefined {
    if (this.dropped === 0) return undefined;
    const head = `the output is ${this.total} characters; the first ${this.dropped}`;
    if (!this.save) return `${head} were dropped`;
    if (this.fileError !== undefined || this.filePath === undefined) {
      return `${head} are not in this result and could not be saved (${this.fileError ?? "no file"})`;
    }
    if (this.complete) return `${head} are not in this result. The full output is in ${this.filePath}`;
    const lost = this.fileChars < this.dropped ? `; characters ${this.fileChars + 1} to ${this.dropped} are lost` : "";
    const why = this.fileStop ? ` (${this.fileStop})` : "";
    return `${head} are not in this result. Only the first ${this.fileChars} were saved, in ${this.filePath}${why}${lost}`;
  }

  /** Closes the output file, if any; later output is no longer saved. */
  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // nothing to do: the data was written synchronously
    }
    this.fd = undefined;
  }

  private open(): void {
    const folder = this.save?.folder;
    if (!folder) return;
    const path = join(folder.path, `shell-${randomBytes(6).toString("hex")}.txt`);
    try {
      folder.prepare();
      // A fresh name, never an existing file or a link put there.
      this.fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      this.filePath = path;
    } catch (error) {
      this.fileError = error instanceof Error ? error.message : String(error);
      return;
    }
    const all = this.chunks.join("");
    this.chunks = [all];
    this.write(all);
  }

  private write(chunk: string): void {
    if (this.fd === undefined) return;
    let part = chunk;
    const room = this.maxFileChars - this.fileChars;
    if (part.length > room) {
      part = part.slice(0, room);
      // Do not split a surrogate pair: a lone half would be written as U+FFFD.
      const last = part.charCodeAt(part.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) part = part.slice(0, -1);
    }
    try {
      let bytes = Buffer.from(part, "utf8");
      if (bytes.length > this.room) this.askRoom(bytes.length);
      if (bytes.length > this.room) {
        // The saved outputs are at their cap: keep what fits, on a character boundary, and stop.
        part = utf8Head(part, this.room);
        bytes = Buffer.from(part, "utf8");
        this.fileStop = `bosun's saved outputs reached their cap of ${formatBytes(this.save?.folder.maxBytes ?? 0)}, storage.output_max_mb`;
      }
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at);
      this.room -= bytes.length;
      this.fileChars += part.length;
    } catch (error) {
      this.fileError = error instanceof Error ? error.message : String(error);
      this.close();
      return;
    }
    if (part.length < chunk.length) this.close();
  }

  /** Asks the folder for room for at least `bytes` more (deleting the oldest other saved outputs if need be). */
  private askRoom(bytes: number): void {
    const folder = this.save?.folder;
    if (!folder) return;
    this.room += folder.makeRoom(bytes - this.room, this.filePath, ROOM_STEP_BYTES);
  }

  private compact(): void {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join("")];
    const only = this.chunks[0] ?? "";
    if (only.length > this.limit) {
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
  /** Save output that outgrows the in-memory limit to a file in this folder (see OutputBuffer). Default: not saved. */
  saveOutput?: SavedOutputs;
  /** Run it confined (sandbox.ts): read-only, no network, outside folders hidden. */
  confine?: Confinement;
}

/**
 * Process groups started here that may still have members: from spawn until the group is seen empty
 * or has been sent SIGKILL. Whatever is here when Node exits is killed.
 */
const live = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // An exit handler cannot wait for a grace period (timers never fire once Node exits), so this is
  // SIGKILL at once: the only signal a process cannot ignore. It runs on process.exit() and on a
  // normal end; a process killed by a signal it does not handle runs no handler at all.
  process.once("exit", () => {
    for (const pgid of live) {
      try {
        killGroup(pgid, "SIGKILL");
      } catch {
        // keep going: the other groups must still die
      }
    }
    live.clear();
  });
}

/**
 * Runs `bash -c command` in its own process group with stdin closed, stdout and stderr merged at the
 * file-descriptor level (so their order is the order they were written), and the tools' environment
 * (see toolEnvironment: withheld secrets, `BOSUN_AGENT=1`).
 * When the shell exits, any process it left in its group is killed: a call owns its whole group.
 */
export function spawnShell(command: string, options: SpawnShellOptions): ShellProcess {
  const started = Date.now();
  const output = new OutputBuffer(OUTPUT_LIMIT_CHARS, options.saveOutput ? { folder: options.saveOutput } : undefined);
  const start = startShell(command, options);
  if ("error" in start) {
    const end: ProcessEnd = { exitCode: null, signal: null, error: start.error, strays: false, durationMs: 0 };
    return { pid: undefined, output, finished: Promise.resolve(end), terminate: () => {} };
  }
  const { child } = start;
  const pid = child.pid;
  const group = groupKeeper(pid, options.confine !== undefined);
  if (pid !== undefined) {
    live.add(pid);
    installExitHook();
  }
  if (options.keepAlive === false) {
    child.unref();
    (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  }
  const finished = watchEnd(child, output, group, {
    started,
    cwd: options.cwd,
    confined: options.confine !== undefined,
  });
  return { pid, output, finished, terminate: group.terminate };
}

/**
 * Spawns the shell, confined when asked. The outer bash redirects stderr into stdout and replaces
 * itself with the bash that runs the command (same pid, same group), so `$0`, line numbers and
 * error messages are those of `bash -c`.
 */
function startShell(command: string, options: SpawnShellOptions): { child: ChildProcess } | { error: string } {
  try {
    const argv = ["bash", "-c", 'exec bash -c "$1" 2>&1', "bash", command];
    const [program, ...args] = options.confine
      ? [bwrapProgram(), ...confinedArgv(options.confine, options.cwd, argv)]
      : argv;
    const child = spawn(program as string, args, {
      cwd: options.cwd,
      env: toolEnvironment(),
      stdio: ["ignore", "pipe", "ignore"],
      detached: true,
    });
    return { child };
  } catch (error) {
    return { error: startError(error, options.cwd) };
  }
}

/** Ends one shell's process group, and says when it may leave `live` (the groups killed at exit). */
interface GroupKeeper {
  /** SIGTERM now, SIGKILL after KILL_GRACE_MS if any member is still alive. */
  terminate: () => void;
  /** The call has settled: the group leaves `live`, unless a member is still in its grace period. */
  release: () => void;
}

function groupKeeper(pid: number | undefined, confined: boolean): GroupKeeper {
  let killTimer: NodeJS.Timeout | undefined;
  /** SIGKILL has been sent after the grace period. */
  let killed = false;
  let settled = false;
  const terminate = (): void => {
    if (pid === undefined || killTimer) return;
    // Confined, bubblewrap's own processes would die of SIGTERM and take the command down at
    // once: the grace period is the command's, so only its processes are asked to stop.
    if (!(confined ? signalCommand(pid, "SIGTERM") : killGroup(pid, "SIGTERM"))) return;
    // Unref'd: it must not keep bosun alive. If bosun exits first, the exit hook sends SIGKILL instead.
    killTimer = setTimeout(() => {
      if (groupAlive(pid)) killGroup(pid, "SIGKILL");
      killed = true;
      // Until the call has settled, settling decides; after it, nothing else will.
      if (settled) live.delete(pid);
    }, KILL_GRACE_MS);
    killTimer.unref();
  };
  const release = (): void => {
    settled = true;
    // Strays that closed the pipe may still be in their grace period: their group stays live (the exit
    // hook kills it if bosun exits now) until the kill timer has sent SIGKILL.
    if (pid !== undefined && !(killTimer && !killed && groupAlive(pid))) {
      live.delete(pid);
      clearTimeout(killTimer);
    }
  };
  return { terminate, release };
}

/**
 * Reads the shell's output into `output` and settles once the shell has exited and the pipe has
 * drained (or could not start); processes it left in its group are killed on its exit.
 */
function watchEnd(
  child: ChildProcess,
  output: OutputBuffer,
  group: GroupKeeper,
  at: { started: number; cwd: string; confined: boolean },
): Promise<ProcessEnd> {
  const pid = child.pid;
  child.stdout?.setEncoding("utf8");
  let chunks = 0;
  child.stdout?.on("data", (chunk: string) => {
    chunks++;
    output.append(chunk);
  });

  return new Promise<ProcessEnd>((resolve) => {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let strays = false;
    let drainTimer: NodeJS.Timeout | undefined;
    let settled = false;

    const settle = (error?: string): void => {
      if (settled) return;
      settled = true;
      if (drainTimer) clearTimeout(drainTimer);
      group.release();
      child.stdout?.destroy();
      output.close();
      const end: ProcessEnd = {
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        strays,
        durationMs: Date.now() - at.started,
      };
      if (error !== undefined) end.error = error;
      resolve(end);
    };

    child.on("error", (error) => {
      // Spawn failures come here without an exit; errors after exit do not matter.
      if (!exit) settle(startError(error, at.cwd));
    });
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      if (pid !== undefined && groupAlive(pid)) {
        // Confined, every process lives in a pid namespace that dies with the sandbox: what is
        // left of the group is bwrap's own processes on their way out, not strays of the command.
        if (at.confined) killGroup(pid, "SIGKILL");
        else {
          strays = true;
          group.terminate();
        }
      }
      // Wait for the pipe to drain; a process that left the group may hold it open forever. The
      // timer phase runs before the poll phase that reads the pipe: on a busy machine the timer
      // can fire with output still unread, so settle only after a poll that brought nothing new.
      // A detached process that keeps writing gets at most 20 more rounds.
      let rounds = 0;
      const drain = (ms: number) => {
        const before = chunks;
        drainTimer = setTimeout(() => {
          setImmediate(() => {
            if (chunks !== before && ++rounds < 20) drain(DRAIN_MS);
            else settle();
          });
        }, ms);
        drainTimer.unref();
      };
      drain(strays ? KILL_GRACE_MS + DRAIN_MS : DRAIN_MS);
    });
    child.once("close", () => {
      if (exit) settle();
    });
  });
}

/**
 * Sends `signal` to the members of group `pgid` that are not bubblewrap itself (the sandbox's
 * monitor and its pid-namespace init); false when the group no longer exists. Where /proc cannot
 * be read, the whole group gets it.
 */
function signalCommand(pgid: number, signal: NodeJS.Signals): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return killGroup(pgid, signal);
  }
  let alive = false;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The process group is the 5th field after the command's name, which may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      alive = true;
      if (basename(readlinkSync(`/proc/${entry}/exe`)) === "bwrap") continue;
      process.kill(Number(entry), signal);
    } catch {
      // Gone meanwhile, or not ours to look at.
    }
  }
  return alive || groupAlive(pgid);
}

function startError(error: unknown, cwd: string): string {
  if (!existsSync(cwd)) return `working directory ${cwd} does not exist`;
  return `could not start bash: ${error instanceof Error ? error.message : String(error)}`;
}
