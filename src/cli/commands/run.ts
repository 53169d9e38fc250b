import { readFileSync } from "node:fs";
import { decideAgent } from "../../agents/select.js";
import { type FlagValue, type LoadedConfig, loadConfig } from "../../config/load.js";
import { BosunError, UsageError } from "../../errors.js";
import type { TurnOutcome } from "../../loop/turn.js";
import { connectMcpServers, type McpConnections } from "../../mcp/connect.js";
import type { ResolvedModel } from "../../model/resolve.js";
import { MODES } from "../../permission/modes.js";
import { readDecisions, recordDecision } from "../../seats/record.js";
import type { Decision } from "../../seats/types.js";
import { selectSessionModel } from "../../session/model.js";
import { openSession } from "../../session/open.js";
import { recoverInterruptedCalls } from "../../session/recover.js";
import { recordUsage } from "../../session/usage.js";
import { acquireLease, type Lease } from "../../store/lease.js";
import type { SessionInfo } from "../../store/session-store.js";
import { SessionStore } from "../../store/session-store.js";
import { createFileTracker, type Seen } from "../../tools/file-tracker.js";
import { createBackgroundJobs } from "../../tools/jobs.js";
import { builtinTools } from "../../tools/registry.js";
import { setWithheldVariables } from "../../util/withheld-env.js";
import { readAttachments } from "../attachments.js";
import {
  gateDeps,
  judgeModel,
  overflowFolder,
  prepareAuthority,
  type RunAuthority,
  settleTrust,
  trustProjectCommands,
} from "../run-authority.js";
import { jsonPrinter, type RunPrinter, textPrinter } from "../run-output.js";

export interface RunOptions {
  model?: string;
  agent?: string;
  continue?: boolean;
  session?: string;
  fork?: boolean;
  auto?: boolean;
  mode?: string;
  allow?: string[];
  ask?: string[];
  deny?: string[];
  trustProject?: boolean;
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

/** `bosun run`: a usage or config error is still reported as JSON events in --format json. */
export async function run(words: string[], options: RunOptions): Promise<void> {
  const format = options.format ?? "text";
  if (format !== "text" && format !== "json") throw new UsageError(`--format must be text or json, not "${format}"`);
  const printer = format === "json" ? jsonPrinter() : textPrinter();
  try {
    await runWith(printer, words, options);
  } catch (error) {
    if (format === "json" && error instanceof BosunError) {
      printer.event({ type: "error", message: error.message });
      process.stdout.write(`${JSON.stringify({ type: "done", status: "error", exitCode: error.exitCode })}\n`);
    }
    throw error;
  }
}

async function runWith(printer: RunPrinter, words: string[], options: RunOptions): Promise<void> {
  const maxSteps = options.maxSteps === undefined ? undefined : Number(options.maxSteps);
  if (maxSteps !== undefined && !(Number.isInteger(maxSteps) && maxSteps > 0)) {
    throw new UsageError(`--max-steps must be a positive whole number, not "${options.maxSteps}"`);
  }
  const text = words.length > 0 ? words.join(" ") : process.stdin.isTTY ? "" : readFileSync(0, "utf8").trim();
  if (text === "") {
    throw new UsageError('nothing to do: give a message, e.g. bosun run "fix the failing test", or pipe one in');
  }
  const cwd = process.cwd();
  const files = await readAttachments(options.file ?? [], cwd);
  const flags: FlagValue[] = [
    ...(options.model !== undefined ? [{ flag: "--model", path: ["model"], value: options.model }] : []),
    ...(maxSteps !== undefined ? [{ flag: "--max-steps", path: ["max_steps"], value: maxSteps }] : []),
  ];
  const loaded = loadConfig({ cwd, flags });
  // Pure and checked before the store is touched: an unknown agent or mode writes nothing.
  decideAgent(options.agent, loaded);

  // Tools never see the keys bosun itself reads: provider variables, whatever config references, inline config.
  setWithheldVariables(["BOSUN_CONFIG_CONTENT", ...referencedVariables(loaded)]);
  const store = SessionStore.open();
  const controller = new AbortController();
  // A person can answer only where the message did not come through stdin and both ends are a terminal.
  const interactive = words.length > 0 && process.stdin.isTTY === true && process.stderr.isTTY === true;
  let config: LoadedConfig;
  let agentChoice: ReturnType<typeof decideAgent>;
  let prepared: RunAuthority;
  try {
    // What the repository's own config would loosen applies only once trusted (seat project.trust).
    const trusted = await settleTrust({
      config: loaded,
      reload: (filterProject) => loadConfig({ cwd, flags, filterProject }),
      trustFlag: options.trustProject === true,
      interactive,
      store,
      cwd,
      signal: controller.signal,
    });
    config = trusted.config;
    agentChoice = decideAgent(options.agent, config);
    prepared = prepareAuthority({
      config,
      agent: agentChoice.agent,
      ...(options.mode !== undefined ? { modeFlag: options.mode } : {}),
      flags: {
        ...(options.allow ? { allow: options.allow } : {}),
        ...(options.ask ? { ask: options.ask } : {}),
        ...(options.deny ? { deny: options.deny } : {}),
      },
      store,
      cwd,
      ...(trusted.decision ? { trust: trusted.decision } : {}),
      ...(trusted.leftOut ? { leftOut: trusted.leftOut } : {}),
    });
  } catch (error) {
    store.close();
    throw error;
  }
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
  process.on("SIGHUP", onSignal);
  const jobs = createBackgroundJobs();
  let lease: Lease | undefined;
  let mcp: McpConnections | undefined;
  try {
    const started = new Date().toISOString();
    const { session, model, ...held } = setUp(store, config, cwd, text, options, controller, agentChoice, prepared);
    const { agent } = agentChoice;
    lease = held.lease;
    // A second Ctrl-C leaves through process.exit: the lease goes with it, not after a heartbeat timeout.
    process.once("exit", () => lease?.release());
    // What was decided before the first step, for --format json (a fork's copied decisions excluded).
    for (const decision of readDecisions(store, session.id).filter((d) => d.at >= started)) {
      printer.event({ type: "decision", decision });
    }
    const record = (decision: Decision) =>
      printer.event({ type: "decision", decision: recordDecision(store, session.id, decision) });
    const gate = gateDeps({
      prepared,
      store,
      sessionId: session.id,
      auto: options.auto ?? false,
      interactive,
      ...(prepared.authority.mode.name === "smart"
        ? {
            judge: {
              model: judgeModel(config, model),
              config,
              signal: controller.signal,
              record,
              onUsage: (used, usage) => recordUsage(store, session.id, used, usage),
            },
          }
        : {}),
      sandbox: config.config.shell?.sandbox ?? "on",
      ...sandboxOrigin(config),
      record,
      signal: controller.signal,
    });
    // What the repository's own config would run (hooks, MCP servers) runs only once judged.
    const skipped = await trustProjectCommands(config, gate, record);
    gate.hooks = gate.hooks.filter((hook) => !skipped.has(hook.key));
    mcp = await connectMcpServers(config, cwd, skipped);
    // What the model is told besides the conversation (seats context.instructions, context.skills).
    const { prepareRunContext } = await import("../run-context.js");
    const runContext = await prepareRunContext({
      config,
      agent,
      cwd,
      workspace: prepared.authority.workspace,
      store,
      sessionId: session.id,
    });
    // One synced commit for both decisions: each commit costs a disk flush at start-up.
    store.atomically(() => {
      for (const decision of runContext.decisions) record(decision);
    });
    const tools = [...builtinTools(), ...runContext.tools, ...mcp.tools];
    const { runTurn } = await import("../../loop/turn.js");
    const outcome = await runTurn(
      { text, ...(files.length > 0 ? { files } : {}) },
      {
        store,
        session,
        config,
        model,
        tools,
        offerTools: MODES[prepared.authority.mode.name].tools,
        context: runContext.context,
        gate,
        maxSteps: config.config.max_steps ?? 100,
        signal: controller.signal,
        emit: (event) => printer.event(event),
        overflowDir: overflowFolder(session.id),
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
    await mcp?.close();
    lease?.release();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onSignal);
    store.close();
  }
}

/**
 * Everything decided before the first step — session, its lease, recovery, agent, model — in
 * one transaction: a model or agent that cannot be used leaves no empty session behind, and a
 * session another live run holds is refused before anything is written to it.
 */
function setUp(
  store: SessionStore,
  config: LoadedConfig,
  cwd: string,
  text: string,
  options: RunOptions,
  controller: AbortController,
  agentChoice: ReturnType<typeof decideAgent>,
  prepared: RunAuthority,
): { session: SessionInfo; lease: Lease; model: ResolvedModel } {
  return store.atomically(() => {
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
    const lease = acquireLease(store, session.id, {
      onLost: () => controller.abort(new Error("another run took over this session")),
    });
    try {
      recoverInterruptedCalls(store, session.id, lease);
      const { agent, ...agentDecision } = agentChoice;
      recordDecision(store, session.id, { seat: "agent.select", ...agentDecision });
      for (const decision of prepared.setupDecisions) recordDecision(store, session.id, decision);
      const model = selectSessionModel(store, session, {
        config,
        agent: { name: agent.name, ...(agent.model ? { model: agent.model } : {}) },
      });
      return { session, lease, model };
    } catch (error) {
      // Stops its heartbeat; the row itself goes with the rolled-back transaction.
      lease.release();
      throw error;
    }
  });
}

/** Where `shell.sandbox` was set, for the exec.sandbox decision. */
function sandboxOrigin(config: LoadedConfig): { sandboxSource?: string } {
  const origin = config.origins.get("shell.sandbox");
  if (!origin || origin.layer === "default") return {};
  return { sandboxSource: `${origin.file ?? origin.source}${origin.line ? `:${origin.line}` : ""}` };
}

/** Environment variables the config's `{env:NAME}` references read (resolved or not). */
function referencedVariables(config: LoadedConfig): string[] {
  const names = new Set<string>();
  for (const ref of [...config.references, ...config.unresolved]) {
    for (const match of JSON.stringify(ref.raw).matchAll(/\{env:\s*([^}\s]+)\s*\}/g)) names.add(match[1] as string);
  }
  return [...names];
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
