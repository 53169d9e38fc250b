import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOSUN_BIN } from "./workspace.js";

/**
 * The real `bosun` binary in a real terminal: a detached tmux session of a fixed size, keys sent
 * to it, the screen read back. For end-to-end tests of the interactive session.
 */
export interface TmuxSession {
  /** Types text (literally), then Enter unless `enter` is false. */
  type(text: string, enter?: boolean): void;
  /** Sends tmux key names: "Escape", "Enter", "C-c". */
  keys(...names: string[]): void;
  screen(): string;
  /** Waits until the screen matches; throws with the screen when it does not in time. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Whether bosun's process has exited (the pane is dead). */
  exited(): boolean;
  /** bosun's exit code once it has exited; undefined before. */
  exitCode(): number | undefined;
  kill(): void;
}

function tmux(...args: string[]): string {
  const done = spawnSync("tmux", args, { encoding: "utf8" });
  if (done.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${done.stderr}`);
  return done.stdout;
}

export function startTmux(options: { cwd: string; env: NodeJS.ProcessEnv; args?: string[] }): TmuxSession {
  const name = `bosun-test-${randomBytes(4).toString("hex")}`;
  const env = Object.entries(options.env).flatMap(([key, value]) =>
    value === undefined || key === "TMUX" ? [] : ["-e", `${key}=${value}`],
  );
  // tmux does not always keep a dead pane's exit status: a shell around bosun writes it to a file.
  const exitFile = join(tmpdir(), `${name}.exit`);
  const command = [
    "sh",
    "-c",
    `"$0" "$@"; echo $? > '${exitFile}'`,
    process.execPath,
    BOSUN_BIN,
    ...(options.args ?? []),
  ];
  tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "45", "-c", options.cwd, ...env, ...command);
  // Keep the pane after bosun exits, so the last screen can still be read.
  tmux("set-option", "-t", name, "remain-on-exit", "on");
  const session: TmuxSession = {
    type(text, enter = true) {
      tmux("send-keys", "-t", name, "-l", text);
      if (enter) tmux("send-keys", "-t", name, "Enter");
    },
    keys: (...names) => void tmux("send-keys", "-t", name, ...names),
    screen: () => tmux("capture-pane", "-p", "-t", name, "-S", "-200"),
    async waitFor(pattern, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const screen = session.screen();
        if (pattern.test(screen)) return screen;
        if (Date.now() > until) throw new Error(`the screen never matched ${pattern}:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    exited: () => tmux("display-message", "-p", "-t", name, "#{pane_dead}").trim() === "1",
    exitCode() {
      if (!existsSync(exitFile)) return undefined;
      const status = readFileSync(exitFile, "utf8").trim();
      return status === "" ? undefined : Number(status);
    },
    kill() {
      spawnSync("tmux", ["kill-session", "-t", name]);
      rmSync(exitFile, { force: true });
    },
  };
  return session;
}
