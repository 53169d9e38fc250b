import { randomUUID } from "node:crypto";
import { decideAgent } from "../agents/select.js";
import type { PersonCall, PersonOutcome } from "../calls/person.js";
import { type FlagValue, type LoadedConfig, loadConfig } from "../config/load.js";
import { decideToolsOffered } from "../context/tools-offered.js";
import type { Decision, RecordedDecision } from "../contracts/decisions.js";
import type { BackgroundJobs, FileTracker, Tool } from "../contracts/tools.js";
import type { RunContext } from "../loop/step-context.js";
import type { RunEvent, TurnOutcome } from "../loop/turn.js";
import { connectMcpServers, type McpConnections } from "../mcp/connect.js";
import type { ResolvedModel } from "../model/resolve.js";
import { selectSessionModel } from "../model/session-model.js";
import { recordUsage, summarizeUsage, type UsageSummary } from "../model/session-usage.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import type { GateDeps } from "../permission/gate/gate.js";
import { type ReadCheck, readCheck, referenceReader } from "../permission/gate/read-check.js";
import { MODES } from "../permission/rules/modes.js";
import type { TrustPrompt } from "../permission/trust/project-trust.js";
import { readDecisions, recordDecision } from "../seats/record.js";
import type { UserMessage } from "../session/events.js";
import { belongsHere } from "../session/home.js";
import { openSession } from "../session/open.js";
import { recoverInterruptedCalls } from "../session/recover.js";
import type { TargetAnswer } from "../session/target.js";
import { awaitsTitle } from "../session/untitled.js";
import { acquireLease, type Lease } from "../store/lease.js";
import { type SessionInfo, SessionStore } from "../store/session-store.js";
import { createFileTracker, type Seen } from "../tools/file-tracker.js";
import { createBackgroundJobs } from "../tools/jobs.js";
import { builtinTools } from "../tools/registry.js";
import { type OutputFolder, startupCleanup } from "../tools/saved-output.js";
import type { Face } from "../util/face.js";
import { setWithheldVariables } from "../util/withheld-env.js";
import {
  gateDeps,
  judgeModel,
  prepareAuthority,
  type RunAuthority,
  settleTrust,
  trustProjectCommands,
} from "./authority.js";
import { referencedVariables, sandboxOrigin, savedOutputs, setWhere, storage, toolLimits } from "./session-config.js";
import { warnOnStderr } from "./warn.js";

/** What opens a live session: `bosun run`'s flags, shared with the interactive terminal. */
export interface SessionOptions {
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
  maxSteps?: number;
  title?: string;
  /** A custom command whose front matter chooses the agent or model for its one turn. */
  command?: CommandChoice;
}

/** A custom command's `agent:` and `model:`, with the file that says so. */
export interface CommandChoice {
  name: string;
  file: string;
  agent?: string;
  model?: string;
}

/** A session held by this process: its lease, tools and authority, ready for one turn after another. */
export interface Runtime {
  store: SessionStore;
  session: SessionInfo;
  model: ResolvedModel;
  config: LoadedConfig;
  agent: string;
  mode: string;
  /** How the session was opened (seat session.target), and for a fork the session it copies. */
  opened: { mode: TargetAnswer["mode"]; parent?: string };
  /** The tools the model is offered as things stand (seat context.tools, judged again by each turn). */
  offeredTools(): string[];
  /**
   * Tokens and cost of every model request since the session was opened here; after close, as
   * they were then (undefined when the store could not be read as it closed).
   */
  usage(): UsageSummary | undefined;
  /** Records a decision in the ledger and shows it. */
  record(decision: Decision): void;
  /**
   * Runs a `` !`cmd` `` span of a repository's custom command as a shell call of this session:
   * judged by every seat a model's call goes through (the person asked through `prompt`), run
   * confined when only a proof allows it. A span that may not run gives its refusal as output.
   */
  runSpan(
    command: string,
    prompt: ApprovalPrompt,
    signal: AbortSignal,
  ): Promise<{ output: string; exitCode: number | null }>;
  /**
   * Runs a command the person runs (a `!cmd`, a span of their own custom command) through the
   * call pipeline as theirs: on record before it runs, post-tool hooks after it, output bounded.
   */
  runCall(call: PersonCall, io: { signal: AbortSignal; prompt?: ApprovalPrompt }): Promise<PersonOutcome>;
  /** One turn; approvals go to `prompt` (none: nobody can be asked). */
  turn(
    message: UserMessage,
    io: { emit: (event: RunEvent) => void; signal: AbortSignal; prompt?: ApprovalPrompt; steering?: () => string[] },
  ): Promise<TurnOutcome>;
  close(): Promise<void>;
}

/**
 * Opens the session a run works in, with everything settled before its first step: config and
 * the repository's trust, agent, mode and rules, the session and its lease, the model, hooks and
 * MCP servers the repository brings (judged), instructions and skills. A usage or config error
 * is thrown before anything is written.
 */
export async function openRuntime(input: {
  cwd: string;
  options: SessionOptions;
  /** The first message when known (`bosun run`): a new session's provisional title. */
  firstMessage?: string;
  /** A person at a terminal: the repository-trust question can be asked. */
  interactive: boolean;
  /** Where errors and warnings of the opening are read: flags are named at the command line, commands in the interactive session. */
  face?: Face;
  /**
   * The interactive session's first opening: its model and mode came from the launch's flags, so
   * an error in them (shown once bosun has exited) names the flags, whatever `face` says.
   */
  launch?: boolean;
  /** Asks the person about a call (bosun run's terminal prompt); per turn, `turn`'s prompt wins. */
  prompt?: ApprovalPrompt;
  /** Asks whether to trust the repository's config (the interactive session's dialog); else a terminal prompt. */
  trustPrompt?: TrustPrompt;
  /** Where warnings go: stderr unless given (the interactive session shows them in its transcript). */
  warn?: (text: string) => void;
  onDecision: (decision: RecordedDecision) => void;
  /** Another run took the session over (its lease was lost). */
  onLeaseLost: () => void;
  /** The person's answer, asked before opening, when the resumed session was started elsewhere (seat session.cwd). */
  cwdChoice?: "switch" | "stay";
  /** Why nobody was asked, when a session started elsewhere opens without an answer (default: not interactive). */
  cwdUnasked?: string;
  signal: AbortSignal;
}): Promise<Runtime> {
  const { cwd, options } = input;
  const warn = input.warn ?? warnOnStderr;
  // Where the model and mode were chosen: the launch's flags, or a command typed in the session.
  const choiceFace: Face = input.launch ? "cli" : (input.face ?? "cli");
  const flags: FlagValue[] = [
    ...(options.model !== undefined ? [{ flag: "--model", path: ["model"], value: options.model }] : []),
    ...(options.maxSteps !== undefined ? [{ flag: "--max-steps", path: ["max_steps"], value: options.maxSteps }] : []),
  ];
  const loaded = loadConfig({ cwd, flags });
  // Pure and checked before the store is touched: an unknown agent or mode writes nothing.
  const commandAgent = options.command?.agent ? { ...options.command, agent: options.command.agent } : undefined;
  decideAgent(options.agent, loaded, commandAgent);
  // Tools never see the keys bosun itself reads: provider variables, whatever config references, inline config.
  setWithheldVariables(["BOSUN_CONFIG_CONTENT", ...referencedVariables(loaded)]);
  const store = SessionStore.open();
  let config: LoadedConfig;
  let agentChoice: ReturnType<typeof decideAgent>;
  let prepared: RunAuthority;
  let check: ReadCheck;
  try {
    // What the repository's own config would loosen applies only once trusted (seat project.trust).
    let filterProject: ((data: unknown) => unknown) | undefined;
    const trusted = await settleTrust({
      config: loaded,
      reload: (filter) => {
        filterProject = filter;
        return loadConfig({ cwd, flags, filterProject: filter });
      },
      trustFlag: options.trustProject === true,
      interactive: input.interactive,
      ...(input.face ? { face: input.face } : {}),
      ...(input.trustPrompt ? { trustPrompt: input.trustPrompt } : {}),
      warn,
      store,
      cwd,
      signal: input.signal,
    });
    const settle = (settled: LoadedConfig) => {
      const choice = decideAgent(options.agent, settled, commandAgent);
      const authority = prepareAuthority({
        config: settled,
        agent: choice.agent,
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
        face: choiceFace,
      });
      // Everything read into the model's context is judged as a read of it would be (permission/read-check.ts).
      const judge = readCheck({ authority: authority.authority, policy: authority.policy });
      return { config: settled, agentChoice: choice, prepared: authority, check: judge };
    };
    const first = settle(trusted.config);
    // Config's {file:} references, read before the rules existed, are read again under them (a
    // repository's `{file:.env}` stays unresolved), and the run is settled on what that leaves.
    ({ config, agentChoice, prepared, check } = settle(
      loadConfig({
        cwd,
        flags,
        ...(filterProject ? { filterProject } : {}),
        readReference: referenceReader(first.check),
      }),
    ));
  } catch (error) {
    store.close();
    throw error;
  }

  const jobs = createBackgroundJobs();
  let lease: Lease | undefined;
  let mcp: McpConnections | undefined;
  const titles: Array<Promise<void>> = [];
  let closing: Promise<void> | undefined;
  // Once, whoever calls it first: the title settles, background jobs and MCP servers stop, the lease goes.
  const releaseOnExit = () => lease?.release();
  const startedMs = Date.now();
  // Taken as the session closes, once its title's request is in: what usage() says afterwards.
  let usedAtClose: UsageSummary | undefined;
  let usedSince: (() => UsageSummary) | undefined;
  const close = () => {
    closing ??= (async () => {
      process.off("exit", releaseOnExit);
      // A title that failed (a full disk) still lets everything else be stopped and closed; its error is thrown after.
      let failed: { error: unknown } | undefined;
      await Promise.all(titles).catch((error: unknown) => {
        failed = { error };
      });
      try {
        usedAtClose = usedSince?.();
      } catch {
        // A store that cannot be read now (a full disk) leaves the totals unknown, not the close undone.
      }
      jobs.killAll();
      await mcp?.close();
      lease?.release();
      store.close();
      if (failed) throw failed.error;
    })();
    return closing;
  };
  try {
    const started = new Date(startedMs).toISOString();
    const { session, model, ...held } = setUp(
      store,
      config,
      cwd,
      { ...input, face: choiceFace, warn },
      agentChoice,
      prepared,
    );
    lease = held.lease;
    usedSince = () => summarizeUsage(store, session.id, startedMs);
    // A second Ctrl-C leaves through process.exit: the lease goes with it, not after a heartbeat
    // timeout. Removed on close: the interactive session opens one session after another.
    process.once("exit", releaseOnExit);
    // What was decided before the first step (a fork's copied decisions excluded).
    const setupDecisions = readDecisions(store, session.id).filter((d) => d.at >= started);
    for (const decision of setupDecisions) input.onDecision(decision);
    const target = setupDecisions.find((d) => d.seat === "session.target")?.answer as TargetAnswer | undefined;
    const record = (decision: Decision) => input.onDecision(recordDecision(store, session.id, decision));
    const settled = gateDeps({
      prepared,
      store,
      sessionId: session.id,
      auto: options.auto ?? false,
      interactive: false,
      ...(prepared.authority.mode.name === "smart"
        ? {
            judge: {
              model: judgeModel(config, model),
              config,
              signal: input.signal,
              record,
              onUsage: (used, usage) => recordUsage(store, session.id, used, usage),
            },
          }
        : {}),
      sandbox: config.config.shell?.sandbox ?? "on",
      ...sandboxOrigin(config),
      record,
      signal: input.signal,
    });
    const asked: GateDeps = input.prompt ? { ...settled, prompt: input.prompt } : settled;
    // What the repository's own config would run (hooks, MCP servers) runs only once judged.
    const allowed = await trustProjectCommands(config, asked, record, warn);
    // The session's gate, settled once: each turn and span judges with a copy of it bearing its own
    // person, signal and recorder (forTurn), so nothing is re-pointed while a call may hold it.
    const gate: Readonly<GateDeps> = Object.freeze({
      ...asked,
      hooks: asked.hooks
        .filter((hook) => !allowed.skipped.has(hook.key))
        .map((hook) => (hook.fromProject ? { ...hook, grant: allowed.grants.get(hook.key) ?? "proof" } : hook)),
    });
    mcp = await connectMcpServers(config, cwd, allowed.skipped, allowed.confinements);
    // What the model is told besides the conversation (seats context.instructions, context.skills).
    const { prepareRunContext } = await import("./context.js");
    const runContext = await prepareRunContext({
      config,
      agent: agentChoice.agent,
      cwd,
      workspace: prepared.authority.workspace,
      store,
      sessionId: session.id,
      check,
    });
    // bosun's saved outputs past their age go now (seat storage.cleanup, recorded when any did).
    const output = savedOutputs(config, session.id);
    const cleanup = startupCleanup(
      output.root,
      storage(config).maxAgeDays,
      setWhere(config, "storage.output_max_age_days"),
    );
    // One synced commit for the decisions: each commit costs a disk flush at start-up.
    store.atomically(() => {
      for (const decision of runContext.decisions) record(decision);
      if (cleanup) record(cleanup);
    });
    const tools = [...builtinTools(), ...runContext.tools, ...mcp.tools];
    const files = createFileTracker({
      cwd,
      initial: seenFiles(store, session.id),
      onSeen: (path, seen) => store.append(session.id, "file.seen", { path, ...(seen ?? { gone: true }) }),
    });
    let turns = 0;
    const shell = () => tools.find((tool) => tool.name === "shell") as Tool;
    /** A person's command through the call pipeline, judged (a repository's span) with this command's person and signal. */
    const runCall: Runtime["runCall"] = async (call, io) => {
      const { runPersonCall } = await import("../calls/person.js");
      const { sessionRecorder } = await import("../calls/recorder.js");
      const { outputBounds } = await import("../calls/bound.js");
      return runPersonCall(call, {
        shell: shell(),
        gate: forTurn(gate, { ...(io.prompt ? { prompt: io.prompt } : {}), signal: io.signal, record }),
        recorder: sessionRecorder(store, session.id, (event) => {
          if (event.type === "decision") input.onDecision(event.decision);
        }),
        bounds: outputBounds(config, output.path),
        signal: io.signal,
      });
    };
    return {
      store,
      session,
      model,
      config,
      agent: agentChoice.agent.name,
      mode: prepared.authority.mode.name,
      opened: { mode: target?.mode ?? "new", ...(target?.mode === "fork" ? { parent: target.from } : {}) },
      // The inputs runTurn judges them on: the same pure decider, so the two cannot disagree.
      offeredTools: () =>
        decideToolsOffered({
          tools,
          authority: gate.authority,
          policy: gate.policy.rules,
          modeRunsTools: MODES[prepared.authority.mode.name].tools,
          modelTakesTools: model.info.tools !== false,
        }).offered.map((tool) => tool.name),
      usage: () => (closing ? usedAtClose : usedSince?.()),
      record,
      async runSpan(command, prompt, signal) {
        const input = { command };
        // Unlike any model call's id, and any other span's: its write-ahead record is found by it.
        const id = `span-${randomUUID().slice(0, 8)}`;
        const shellContext = { cwd, files, jobs, signal, callId: id, limits: toolLimits(config), output };
        const outcome = await runCall(
          {
            id,
            command,
            repository: true,
            execute: (confine) => shell().execute(input, { ...shellContext, ...(confine ? { confine } : {}) }),
          },
          { prompt, signal },
        );
        if (!outcome.ran)
          return { output: "cancelled" in outcome ? "" : `[not run: ${outcome.summary}]`, exitCode: null };
        const exit = outcome.result.metadata?.exitCode;
        return {
          output: outcome.result.output,
          exitCode: typeof exit === "number" ? exit : outcome.result.isError ? 1 : 0,
        };
      },
      runCall,
      async turn(message, io) {
        turns++;
        // Asked now, before the turn puts its message on record: does this session await its title?
        if (turns === 1 && awaitsTitle(store, session.id)) titles.push(title(message.text));
        const { runTurn } = await import("../loop/turn.js");
        return runTurn(message, turnDeps({ io, gate, tools, runContext: runContext.context, files, jobs, output }));
      },
      close,
    };

    /** Seat session.title, beside the first turn, settled before the session closes. */
    async function title(message: string): Promise<void> {
      const { titleSession } = await import("../model/title.js");
      await titleSession({
        store,
        sessionId: session.id,
        message,
        ...(options.title !== undefined ? { flagTitle: options.title } : {}),
        model,
        config,
        signal: input.signal,
        record,
        warn,
        awaitsTitle: true,
      });
    }

    function turnDeps(parts: {
      io: { emit: (event: RunEvent) => void; signal: AbortSignal; prompt?: ApprovalPrompt; steering?: () => string[] };
      gate: Readonly<GateDeps>;
      tools: Tool[];
      runContext: RunContext;
      files: FileTracker;
      jobs: BackgroundJobs;
      output: OutputFolder;
    }): Parameters<typeof import("../loop/turn.js").runTurn>[1] {
      const { io } = parts;
      // This turn's person and signal (Esc in the terminal cancels this turn, not the session); its
      // decisions reach whoever shows it, as the loop's own do.
      const turnGate = forTurn(parts.gate, {
        ...(io.prompt ? { prompt: io.prompt } : {}),
        signal: io.signal,
        record: (decision) => io.emit({ type: "decision", decision: recordDecision(store, session.id, decision) }),
      });
      return {
        store,
        session,
        config,
        model,
        tools: parts.tools,
        offerTools: MODES[prepared.authority.mode.name].tools,
        context: parts.runContext,
        gate: turnGate,
        maxSteps: config.config.max_steps ?? 100,
        signal: io.signal,
        emit: io.emit,
        ...(io.steering ? { steering: io.steering } : {}),
        overflowDir: parts.output.path,
        toolContext: {
          cwd,
          files: parts.files,
          jobs: parts.jobs,
          limits: toolLimits(config),
          output: parts.output,
        },
      };
    }
  } catch (error) {
    await close();
    throw error;
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
  input: {
    options: SessionOptions;
    firstMessage?: string;
    onLeaseLost: () => void;
    cwdChoice?: "switch" | "stay";
    cwdUnasked?: string;
    face?: Face;
    warn: (text: string) => void;
  },
  agentChoice: ReturnType<typeof decideAgent>,
  prepared: RunAuthority,
): { session: SessionInfo; lease: Lease; model: ResolvedModel } {
  const { options } = input;
  return store.atomically(() => {
    const session = openSession(store, {
      directory: cwd,
      flags: {
        ...(options.session !== undefined ? { session: options.session } : {}),
        ...(options.continue ? { continue: true } : {}),
        ...(options.fork ? { fork: true } : {}),
      },
      config,
      // A fork without --title is named after its original ("… (fork)", as `bosun sessions fork`
      // names it); a new session, until its title is decided, after its first line.
      ...(options.title !== undefined || !options.fork
        ? { title: options.title ?? input.firstMessage?.split("\n")[0]?.slice(0, 60) ?? "" }
        : {}),
    });
    const lease = acquireLease(store, session.id, { onLost: input.onLeaseLost });
    try {
      recoverInterruptedCalls(store, session.id, lease);
      // A session of this repository, from any of its folders, is at home here.
      if (!belongsHere(session.directory, cwd) || input.cwdChoice)
        recordDecision(store, session.id, decideCwd(session, cwd, input));
      const { agent, ...agentDecision } = agentChoice;
      recordDecision(store, session.id, {
        seat: "agent.select",
        ...agentDecision,
        ...(options.command?.agent ? { subject: { command: options.command.name } } : {}),
      });
      for (const decision of prepared.setupDecisions) recordDecision(store, session.id, decision);
      const { command } = options;
      const model = selectSessionModel(store, session, {
        config,
        ...(input.face ? { face: input.face } : {}),
        agent: { name: agent.name, ...(agent.model ? { model: agent.model } : {}) },
        ...(command?.model ? { command: { name: command.name, file: command.file, model: command.model } } : {}),
      });
      if (model.warning) input.warn(model.warning);
      return { session, lease, model };
    } catch (error) {
      // Stops its heartbeat; the row itself goes with the rolled-back transaction.
      lease.release();
      throw error;
    }
  });
}

/**
 * Seat `session.cwd`: the session was started in another directory. The person's answer when
 * one was asked (switch: bosun now runs there); else it stays here, with a warning on stderr.
 */
function decideCwd(
  session: SessionInfo,
  cwd: string,
  how: { cwdChoice?: "switch" | "stay"; cwdUnasked?: string; warn: (text: string) => void },
): Decision {
  const choice = how.cwdChoice;
  const reason = {
    rule: "started elsewhere",
    detail: `the session was started in ${session.directory}; this run is in ${cwd}`,
  };
  if (choice) {
    return {
      seat: "session.cwd",
      holder: "person",
      answer: choice,
      reasons: [
        reason,
        { rule: "the person chose", detail: choice === "switch" ? "switch back" : "stay here", decisive: true },
      ],
    };
  }
  how.warn(`session ${session.id.slice(0, 10)} was started in ${session.directory}; working here, in ${cwd}`);
  return {
    seat: "session.cwd",
    holder: "code",
    answer: "stay",
    reasons: [
      { rule: "started elsewhere", detail: `the session was started in ${session.directory}; this run is in ${cwd}` },
      {
        rule: "nobody to ask",
        detail: how.cwdUnasked ?? "not interactive: stays in the current directory, warned on stderr",
        decisive: true,
      },
    ],
  };
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

/**
 * The gate one turn (or one span) judges with: a fresh, frozen copy of the session's, with that
 * turn's person (kept from the session when the turn brings none), signal and recorder.
 */
export function forTurn(
  gate: Readonly<GateDeps>,
  turn: { prompt?: ApprovalPrompt; signal: AbortSignal; record: GateDeps["record"] },
): Readonly<GateDeps> {
  return Object.freeze({ ...gate, ...turn });
}
