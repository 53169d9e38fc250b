import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";

/**
 * A command in a real pseudo-terminal, for tests of what a person at a terminal sees and types.
 * The terminal itself is Python's standard `pty` module (pty-bridge.py): no native addon. Output
 * is matched with ANSI escapes stripped, like an `expect` script: each `waitForText` searches
 * from where the previous match ended, so a wait after a keypress sees only what came after.
 */
export interface Pty {
  /** Waits until the output (escapes stripped) after the previous match matches; returns the match. */
  waitForText(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Types keys: "\r" is Enter, "\x1b[B" arrow down, "\x1b[A" arrow up, "\x03" Ctrl-C. */
  write(keys: string): void;
  /** Everything printed so far, escapes stripped. */
  text(): string;
  /** Everything printed so far, as the terminal got it. */
  raw(): string;
  /** The command's exit code (128 + N for signal N); rejects after `timeoutMs`. */
  exit(timeoutMs?: number): Promise<number>;
  /** Kills the command and its process group (safe to call at any time, twice). */
  kill(): void;
}

export const KEYS = { enter: "\r", down: "\x1b[B", up: "\x1b[A", ctrlC: "\x03" } as const;

const BRIDGE = fileURLToPath(new URL("./pty-bridge.py", import.meta.url));

export function spawnPty(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; cols?: number; rows?: number },
): Pty {
  const child: ChildProcess = spawn(
    "python3",
    [BRIDGE, String(options.cols ?? 120), String(options.rows ?? 40), command, ...args],
    { cwd: options.cwd, env: { ...options.env, TERM: "xterm-256color" }, stdio: ["pipe", "pipe", "pipe"] },
  );
  let raw = "";
  let plain = "";
  let consumed = 0;
  let bridgeErrors = "";
  let code: number | undefined;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    raw += chunk;
    // An escape cut in two by a chunk's end is held back until it is whole, so `plain` only grows.
    plain = stripAnsi(raw.slice(0, completeLength(raw)));
    notify();
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    bridgeErrors += chunk;
  });
  // Writing to a bridge that has gone must not crash the test process.
  child.stdin?.on("error", () => {});
  child.on("error", (error) => {
    bridgeErrors += `cannot start python3: ${error.message}`;
    code = 127;
    notify();
  });
  child.on("close", (exitCode, signal) => {
    plain = stripAnsi(raw);
    code = exitCode ?? 128 + (signal === "SIGKILL" ? 9 : 15);
    notify();
  });

  const describe = () =>
    `--- terminal so far (escapes stripped) ---\n${plain}\n--- end${bridgeErrors ? `; bridge stderr: ${bridgeErrors}` : ""}`;

  /** Resolves when `check` returns a value; rejects after `timeoutMs` or when the process is gone first. */
  function until<T>(check: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const finish = (error?: Error, value?: T) => {
        clearTimeout(timer);
        listeners.delete(listener);
        if (error) reject(error);
        else resolve(value as T);
      };
      const listener = () => {
        const value = check();
        if (value !== undefined) finish(undefined, value);
        else if (code !== undefined) finish(new Error(`exited with ${code} before ${what}\n${describe()}`));
      };
      const timer = setTimeout(
        () => finish(new Error(`waited ${timeoutMs} ms in vain for ${what}\n${describe()}`)),
        timeoutMs,
      );
      listeners.add(listener);
      listener();
    });
  }

  return {
    waitForText(pattern, timeoutMs = 30_000) {
      const once = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""));
      return until(
        () => {
          const match = plain.slice(consumed).match(once);
          if (!match) return undefined;
          consumed += (match.index ?? 0) + match[0].length;
          return match;
        },
        String(pattern),
        timeoutMs,
      );
    },
    write(keys) {
      child.stdin?.write(keys);
    },
    text: () => plain,
    raw: () => raw,
    exit: (timeoutMs = 30_000) => until(() => code, "the exit", timeoutMs),
    kill() {
      if (code === undefined) child.kill("SIGTERM");
    },
  };
}

/** Output as a person would read it: without colour, cursor moves and erases (Node's own stripper), and without CR. */
export function stripAnsi(text: string): string {
  return stripVTControlCharacters(text).replace(/\r/g, "");
}

/** How much of `raw` ends in whole escapes: all of it, unless it ends inside an unfinished one. */
function completeLength(raw: string): number {
  const start = raw.lastIndexOf("\x1b");
  if (start < 0) return raw.length;
  const rest = raw.slice(start + 1);
  if (rest === "") return start;
  // CSI: parameters, then one final byte in @..~.
  if (rest[0] === "[") return /^\[[0-?]*[ -/]*[@-~]/.test(rest) ? raw.length : start;
  // OSC: ends with BEL (or ESC \, whose ESC is then the last one found).
  if (rest[0] === "]") return rest.includes("\x07") ? raw.length : start;
  return raw.length;
}
