import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, afterEach, before, beforeEach } from "node:test";
import type { BackgroundJobs, FileTracker, ToolContext, ToolLimits } from "../../src/contracts/tools.js";

/** The limits a test context has unless it says otherwise: the defaults `bosun run` uses. */
export const TEST_LIMITS: ToolLimits = { shellTimeoutMs: 120_000, shellMaxTimeoutMs: 600_000, maxResults: 100 };

export interface ToolContextOptions {
  /** Default: a tracker that throws if used, for tools that must not touch it. */
  files?: FileTracker;
  /** Default: background jobs that throw if used, for tools that must not start any. */
  jobs?: BackgroundJobs;
  /** Default: a signal that never aborts. */
  signal?: AbortSignal;
  /** Default: "call-1". */
  callId?: string;
  /** Overrides of TEST_LIMITS. */
  limits?: Partial<ToolLimits>;
}

/** A ToolContext for running one tool in `cwd`. */
export function toolContext(cwd: string, options: ToolContextOptions = {}): ToolContext {
  return {
    cwd,
    signal: options.signal ?? new AbortController().signal,
    callId: options.callId ?? "call-1",
    files: options.files ?? unusable<FileTracker>("files"),
    jobs: options.jobs ?? unusable<BackgroundJobs>("jobs"),
    limits: { ...TEST_LIMITS, ...options.limits },
  };
}

/** An object whose every method throws: a context part the tool under test must not use. */
function unusable<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      if (typeof property === "symbol") return undefined;
      return () => {
        throw new Error(`ctx.${name}.${property} must not be used by this tool (give ${name} to toolContext)`);
      };
    },
  });
}

export interface TempFolder {
  /** The folder's real path (symlinks resolved). Read it inside tests and hooks only. */
  readonly path: string;
  /** Writes `content` to `relative` inside the folder, creating parent folders; returns the absolute path. */
  put(relative: string, content?: string | Buffer): string;
}

/**
 * A temporary folder, made before each test and removed after it (or with `"file"`, made once before
 * the file's first test and removed after its last). Call it at the top of a test file: it adds the hooks,
 * which run before hooks the file adds later.
 */
export function tempFolder(name: string, scope: "test" | "file" = "test"): TempFolder {
  let path: string | undefined;
  const make = () => {
    path = realpathSync(mkdtempSync(join(tmpdir(), `bosun-${name}-`)));
  };
  const remove = () => {
    if (path !== undefined) rmSync(path, { recursive: true, force: true });
    path = undefined;
  };
  if (scope === "test") {
    beforeEach(make);
    afterEach(remove);
  } else {
    before(make);
    after(remove);
  }
  const current = (): string => {
    if (path === undefined) throw new Error(`the temporary folder bosun-${name}-* exists only inside tests and hooks`);
    return path;
  };
  return {
    get path() {
      return current();
    },
    put: (relative, content) => put(current(), relative, content),
  };
}

/** Writes `content` to `path` below `root`, creating parent folders; returns the absolute path. */
export function put(root: string, path: string, content: string | Buffer = ""): string {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
  return full;
}

/** True once `pid` has exited: gone, or a zombie waiting for a reaper that is not us. */
export function dead(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") ?? true;
  } catch {
    if (existsSync("/proc/self")) return true;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** Polls `check` every 25 ms until it holds or `ms` have passed; returns whether it held. */
export async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

/** The process ids a shell command printed, one a line (`echo $$`, `echo $!`), in order. */
export function pids(output: string): number[] {
  return output
    .split("\n")
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}

/**
 * True once no live process is left in process group `pgid` (zombies waiting for a reaper that is not
 * us count as gone). Reads /proc where it exists; elsewhere asks the kernel, which counts zombies.
 */
export function groupGone(pgid: number): boolean {
  if (existsSync("/proc/self")) {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // exited while we looked
      }
      // After "pid (comm) ": state, ppid, pgrp, ...
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z") return false;
    }
    return true;
  }
  try {
    process.kill(-pgid, 0);
    return false;
  } catch {
    return true;
  }
}

/** Sends SIGKILL to process group `pgid` if it still exists: cleanup after a test that may have failed. */
export function killGroupQuietly(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // already gone
  }
}

export interface NodeScriptEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
}

/**
 * Runs `script` (an ES module, TypeScript allowed through tsx) in a separate Node process, as bosun
 * itself would run, and resolves once it exits; rejects (after killing it) if it runs longer than `ms`.
 * Import project modules by file URL: `pathToFileURL(join(import.meta.dirname, "x.ts")).href`.
 */
export function runNodeScript(script: string, ms = 10_000): Promise<NodeScriptEnd> {
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the node script did not exit within ${ms} ms; its output: ${stdout}`));
    }, ms);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      // Let the pipe drain: "exit" can come before the last output.
      child.stdout.once("close", () => resolve({ code, signal, stdout }));
      if (child.stdout.closed) resolve({ code, signal, stdout });
    });
  });
}
