import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { decideAgent } from "../../agents/select.js";
import { type FlagValue, loadConfig } from "../../config/load.js";
import { dataDir } from "../../config/paths.js";
import { systemPrompt } from "../../context/system-prompt.js";
import { UsageError } from "../../errors.js";
import { runTurn, type TurnOutcome } from "../../loop/turn.js";
import { recordDecision } from "../../seats/record.js";
import { selectSessionModel } from "../../session/model.js";
import { openSession } from "../../session/open.js";
import { recoverInterruptedCalls } from "../../session/recover.js";
import { SessionStore } from "../../store/session-store.js";
import { createFileTracker, type Seen } from "../../tools/file-tracker.js";
import { createBackgroundJobs } from "../../tools/jobs.js";
import { builtinTools } from "../../tools/registry.js";
import { jsonPrinter, textPrinter } from "../run-output.js";

export interface RunOptions {
  model?: string;
  agent?: string;
  continue?: boolean;
  session?: string;
  fork?: boolean;
  auto?: boolean;
  maxSteps?: string;
  format?: string;
  file?: string[];
  title?: string;
}

/** Exit codes: 0 done; 1 runtime failure; 2 usage or config (thrown); 3 stopped by a limit or a denied approval; 130 cancelled. */
export function exitCodeOf(outcome: TurnOutcome): number {
  switch (outcome.status) {
    case "done":
      return outcome.denied > 0 ? 3 : 0;
    case "limit":
    case "repeat":
      return 3;
    case "cancelled":
      return 130;
    default:
      return 1;
  }
}

/** What the session has read before, from its `file.seen` events: edit's staleness check survives a resume. */
function seenFiles(store: SessionStore, sessionId: string): Array<[string, Seen]> {
  const latest = new Map<string, Seen>();
  for (const event of store.events(sessionId, "file.seen")) {
    const { path, gone, ...seen } = event.data as Seen & { path: string; gone?: boolean };
    if (gone) latest.delete(path);
    else latest.set(path, seen);
  }
  return [...latest];
}

export async function run(words: string[], options: RunOptions): Promise<void> {
  const format = options.format ?? "text";
  if (format !== "text" && format !== "json") throw new UsageError(`--format must be text or json, not "${format}"`);
  const maxSteps = options.maxSteps === undefined ? undefined : Number(options.maxSteps);
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps > 0)) {
    throw new UsageError(`--max-steps must be a positive whole number, not "${options.maxSteps}"`);
  }
  const text = words.length > 0 ? words.join(" ") : process.stdin.isTTY ? "" : readFileSync(0, "utf8").trim();
  if (text === "")
    throw new UsageError('nothing to do: give a message, e.g. bosun run "fix the failing test", or pipe one in');
  const cwd = process.cwd();
  const files = (options.file ?? []).map((path) => {
    try {
      return { path, content: readFileSync(resolve(cwd, path), "utf8") };
    } catch (error) {
      throw new UsageError(
        `cannot attach ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  });

  const flags: FlagValue[] = [
    ...(options.model !== undefined ? [{ flag: "--model", path: ["model"], value: options.model }] : []),
    ...(maxSteps !== undefined ? [{ flag: "--max-steps", path: ["max_steps"], value: maxSteps }] : []),
  ];
  const config = loadConfig({ cwd, flags });
  const store = SessionStore.open();
  const printer = format === "json" ? jsonPrinter() : textPrinter();
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts++;
    // A second Ctrl-C leaves at once; the session stays valid because every write is a transaction.
    if (interrupts > 1) process.exit(130);
    process.stderr.write(`\nbosun: ${signal}: cancelling (again to quit at once)\n`);
    controller.abort(new Error(`cancelled by ${signal}`));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const jobs = createBackgroundJobs();
  try {
    const session = openSession(store, {
      directory: cwd,
      flags: {
        ...(options.session !== undefined ? { session: options.session } : {}),
        ...(options.continue ? { continue: true } : {}),
        ...(options.fork ? { fork: true } : {}),
      },
      config,
      title: options.title ?? text.split("\n")[0]?.slice(0, 60) ?? "",
    });
    recoverInterruptedCalls(store, session.id);
    const agentChoice = decideAgent(options.agent, config);
    const { agent, ...agentDecision } = agentChoice;
    recordDecision(store, session.id, { seat: "agent.select", ...agentDecision });
    const model = selectSessionModel(store, session, {
      config,
      agent: { name: agent.name, ...(agent.model ? { model: agent.model } : {}) },
    });
    const outcome = await runTurn(
      { text, ...(files.length > 0 ? { files } : {}) },
      {
        store,
        session,
        config,
        model,
        tools: builtinTools(),
        system:
          agent.prompt ??
          systemPrompt({ cwd, date: new Date().toISOString().slice(0, 10), platform: process.platform }),
        auto: options.auto ?? false,
        maxSteps: config.config.max_steps ?? 100,
        signal: controller.signal,
        emit: (event) => printer.event(event),
        overflowDir: join(dataDir(), "overflow", session.id),
        toolContext: {
          cwd,
          files: createFileTracker({
            cwd,
            initial: seenFiles(store, session.id),
            onSeen: (path, seen) => store.append(session.id, "file.seen", { path, ...(seen ?? { gone: true }) }),
          }),
          jobs,
          limits: {
            shellTimeoutMs: config.config.shell?.timeout_ms ?? 120_000,
            shellMaxTimeoutMs: config.config.shell?.max_timeout_ms ?? 600_000,
            maxResults: 200,
          },
        },
      },
    );
    const exitCode = exitCodeOf(outcome);
    printer.done(outcome, session.id, exitCode);
    process.exitCode = exitCode;
  } finally {
    jobs.killAll();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    store.close();
  }
}
