import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RecordedDecision } from "../../src/contracts/decisions.js";
import { readDecisions } from "../../src/seats/record.js";
import { SessionStore } from "../../src/store/session-store.js";
import {
  assertNoFailures,
  type ModelServer,
  type Script,
  type ScriptedProtocol,
  startModelServer,
} from "./model-server.js";
import { BOSUN_BIN, createWorkspace, type RunResult, spawnProcess, type Workspace } from "./workspace.js";

/**
 * A scenario: a temp git repo with its own BOSUN_HOME, a scripted model server, and the user's
 * config ($BOSUN_HOME/bosun.json) pointing at it — where a person's provider lives: a repository
 * that sets a provider's endpoint needs the person's trust. Drives the real `bosun` binary over
 * real HTTP.
 */
export interface Scenario {
  ws: Workspace;
  server: ModelServer;
  run(args: string[], options?: { env?: NodeJS.ProcessEnv; input?: string }): Promise<RunResult>;
  /** Rewrites the user's config: the scripted provider plus `extra`. */
  setUserConfig(extra: Record<string, unknown>): void;
  /** Starts `bosun run ...` without waiting, for signal tests. */
  spawn(args: string[]): { child: ChildProcess; result: Promise<RunResult> };
  /** The JSON events a `--format json` run printed. */
  events(result: RunResult): Array<Record<string, unknown> & { type: string }>;
  /** The newest session's id and ledger, read from the database like another process would. */
  latest(): { id: string; decisions: RecordedDecision[]; events: Array<{ type: string; data: unknown }> };
  close(): Promise<void>;
}

export async function startScenario(
  script: Script,
  options: {
    protocol?: ScriptedProtocol;
    /** Added to the repository's bosun.json (the project layer). */
    config?: Record<string, unknown>;
    /** Added to the user's own config, $BOSUN_HOME/bosun.json (the global layer). */
    global?: Record<string, unknown>;
  } = {},
): Promise<Scenario> {
  const ws = createWorkspace();
  const server = await startModelServer(script);
  const setUserConfig = (extra: Record<string, unknown>) =>
    writeFileSync(
      join(ws.home, "bosun.json"),
      JSON.stringify({ ...server.configFor(options.protocol ?? "openai-compatible"), ...extra }, null, 2),
    );
  setUserConfig(options.global ?? {});
  ws.write("bosun.json", JSON.stringify(options.config ?? {}, null, 2));
  const env = { AI_SDK_LOG_WARNINGS: "false" };
  return {
    ws,
    server,
    setUserConfig,
    run: (args, runOptions = {}) =>
      ws.run(args, {
        env: { ...env, ...runOptions.env },
        ...(runOptions.input !== undefined ? { input: runOptions.input } : {}),
      }),
    spawn(args) {
      const started = spawnProcess(process.execPath, [BOSUN_BIN, ...args], { cwd: ws.dir, env: { ...ws.env, ...env } });
      started.child.stdin?.end();
      return started;
    },
    events: (result) =>
      result.stdout
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown> & { type: string }),
    latest() {
      const store = SessionStore.open(join(ws.home, "data", "bosun.db"));
      try {
        const [session] = store.list();
        if (!session) throw new Error("no session was created");
        return {
          id: session.id,
          decisions: readDecisions(store, session.id),
          events: store.events(session.id).map((e) => ({ type: e.type, data: e.data })),
        };
      } finally {
        store.close();
      }
    },
    async close() {
      // Close first, then judge: a failing assertion must not leave the server holding the test open.
      const failures = [...server.failures];
      await server.close();
      ws.cleanup();
      assertNoFailures({ ...server, failures });
    },
  };
}

/** Waits until `check` returns a value, polling; fails after `ms`. */
export async function waitFor<T>(check: () => T | undefined, ms = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      const value = check();
      if (value !== undefined) return value;
    } catch {
      // Not there yet (e.g. the database is still being created).
    }
    if (Date.now() - started > ms) throw new Error(`waited ${ms} ms in vain`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the model was sent in request `n` (1-based), its messages' text joined by lines. */
export function sentText(s: Pick<Scenario, "server">, n: number): string {
  return (
    s.server
      .request(n)
      .normalized?.messages.map((m) => m.text)
      .join("\n") ?? ""
  );
}
