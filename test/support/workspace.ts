import { type ChildProcess, type SpawnOptions, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The compiled CLI that users run; scenario tests drive exactly this file. */
export const BOSUN_BIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Workspace {
  /** A fresh git repository: the working directory of every run. */
  dir: string;
  /** BOSUN_HOME for this workspace: global config and database live here. */
  home: string;
  /** The environment runs get: clean of the caller's BOSUN_*, XDG_* and npm runner variables. */
  env: NodeJS.ProcessEnv;
  /** Runs the real `bosun` binary and waits for it to exit. */
  run(args: string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string }): Promise<RunResult>;
  /** Writes a file relative to the repository, creating folders. */
  write(path: string, content: string): string;
  cleanup(): void;
}

export function createWorkspace(): Workspace {
  if (!existsSync(BOSUN_BIN)) throw new Error(`${BOSUN_BIN} is missing: run \`npm run build\` first`);
  const root = mkdtempSync(join(tmpdir(), "bosun-test-"));
  const dir = join(root, "repo");
  const home = join(root, "home");
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  spawnSync("git", ["init", "-q", dir], { stdio: "ignore" });

  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // `npm test` exports npm_config_cache and friends; a program under test must not inherit them.
    if (!/^(BOSUN_|XDG_|npm_)/i.test(key)) env[key] = value;
  }
  env.BOSUN_HOME = home;

  return {
    dir,
    home,
    env,
    run: (args, options = {}) =>
      runProcess(process.execPath, [BOSUN_BIN, ...args], {
        cwd: options.cwd ?? dir,
        env: { ...env, ...options.env },
        ...(options.input !== undefined ? { input: options.input } : {}),
      }),
    write(path, content) {
      const full = join(dir, path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
      return full;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function runProcess(
  command: string,
  args: string[],
  options: SpawnOptions & { input?: string },
): Promise<RunResult> {
  const { child, result } = spawnProcess(command, args, options);
  child.stdin?.end(options.input ?? "");
  return result;
}

/** Starts a process and collects its output; `result` settles when it exits. */
export function spawnProcess(
  command: string,
  args: string[],
  options: SpawnOptions,
): { child: ChildProcess; result: Promise<RunResult> } {
  const child = spawn(command, args, { ...options, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const result = new Promise<RunResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  return { child, result };
}
