import { decideAgent } from "../agents/select.js";
import type { PersonCall, PersonOutcome } from "../calls/person.js";
import { type FlagValue, type LoadedConfig, loadConfig } from "../config/load.js";
import type { Agent } from "../contracts/agent.js";
import type { Decision, RecordedDecision } from "../contracts/decisions.js";
import type { QuestionPrompt } from "../contracts/question.js";
import type { BackgroundJob, FileAccess, Tool, ToolVersion } from "../contracts/tools.js";
import type { RunContext } from "../loop/step-context.js";
import type { TurnOutcome } from "../loop/turn.js";
import type { CompactHooks } from "../loop/window.js";
import { connectMcpServers, type McpConnections } from "../mcp/connect.js";
import { leftOutServers } from "../mcp/left-out.js";
import type { McpPrompt } from "../mcp/prompts.js";
import type { ResolvedModel } from "../model/resolve.js";
import { recordUsage, type UsageSummary } from "../model/session-usage.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import { readCheck, referenceReader } from "../permission/gate/read-check.js";
import { MODES, type ModeChoice } from "../permission/rules/modes.js";
import type { TrustPrompt } from "../permission/trust/project-trust.js";
import { readDecisions, recordDecision } from "../seats/record.js";
import type { UserMessage } from "../session/events.js";
import type { TargetAnswer } from "../session/target.js";
import { awaitsTitle } from "../session/untitled.js";
import { type SessionInfo, SessionStore } from "../store/session-store.js";
import { createFileTracker } from "../tools/file-tracker.js";
import { builtinTools } from "../tools/registry.js";
import { type OutputFolder, startupCleanup } from "../tools/saved-output.js";
import type { Face } from "../util/face.js";
import { workspaceOf } from "../util/repo.js";
import { setWithheldVariables } from "../util/withheld-env.js";
import {
  gateDeps,
  judgedHooks,
  judgeModel,
  type ProjectCommandsAllowed,
  prepareAuthority,
  type RunAuthority,
  settleTrust,
  trustProjectCommands,
} from "./authority.js";
import { type DelegationHost, type HostTurn, usageOf } from "./delegate.js";
import { carryOverJobs } from "./earlier-jobs.js";
import { goalDeps } from "./goal-deps.js";
import { lifecycleDeps, notifyingQuestionPrompt, sessionStartHooks } from "./lifecycle-deps.js";
import type { SessionOptions, TurnIo } from "./options.js";
import { personCalls } from "./person-calls.js";
import { type RevertRequest, type RevertResult, revertHandles, type turnList } from "./revert.js";
import { followServerInstructions } from "./server-context.js";
import { referencedVariables, sandboxOrigin, savedOutputs, setWhere, storage, toolLimits } from "./session-config.js";
import type { SessionGate } from "./session-gate.js";
import { type SessionLife, sessionLife } from "./session-life.js";
import { offeredNames, sessionTools } from "./session-tools.js";
import { seenFiles, setUp } from "./set-up.js";
import { turnSnapshots } from "./snapshots.js";
import { mcpHandles, toolsNow } from "./tools-now.js";
import { warnOnStderr } from "./warn.js";

export type { CommandChoice, SessionOptions } from "./options.js";

/** A session held by this process: its lease, tools and authority, ready for one turn after another. */
export interface Runtime {
  store: SessionStore;
  session: SessionInfo;
  model: ResolvedModel;
  config: LoadedConfig;
  agent: string;
  mode: string;
  /** A turn's step budget (--max-steps, else the agent's max_steps, else config max_steps). */
  maxSteps: number;
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
  /** The session's pre_compact hooks, for a compaction the person asks for (/compact). */
  preCompact: CompactHooks;
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
  /** The connected MCP servers' prompts, offered as slash commands `/mcp:<server>:<prompt>`: as they stand (list_changed, a reconnect). */
  mcpPrompts: () => readonly McpPrompt[];
  /** One MCP prompt as the message to send, for the person's words (split as a shell splits them); or why not. */
  mcpPrompt: McpConnections["getPrompt"];
  /** Every configured MCP server as things stand: connected, failed, disabled or skipped, and its tools (/mcp). */
  mcpStatus: McpConnections["status"];
  /** Starts one MCP server again (seat mcp.connect); its tools are offered from the next step (/mcp reconnect). */
  mcpReconnect: McpConnections["reconnect"];
  /** This run's background jobs, running and done (/jobs). */
  jobs(): BackgroundJob[];
  /** One turn; approvals go to `prompt` (none: nobody can be asked). */
  turn(message: UserMessage, io: TurnIo): Promise<TurnOutcome>;
  /** Undo, redo or rewind (seat session.revert): refused while a turn of this runtime runs. */
  revert(ask: Omit<RevertRequest, "running">): Promise<RevertResult>;
  /** The session's turns, for /rewind to pick from. */
  turns(): ReturnType<typeof turnList>;
  close(): Promise<void>;
}

/** How a face opens a session (see openRuntime). */
export interface OpenInput {
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
  /** Puts an MCP server's form (elicitation) to the person; none: nobody can answer, it is declined. */
  question?: QuestionPrompt;
  /** Where the file tools' text comes from and goes to besides the disk (an editor's buffers, ACP fs). */
  access?: FileAccess;
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
  /**
   * Settings a face brings as the person's own, a layer as flags are: an editor's MCP servers
   * (bosun acp's session/new), named by where they came from.
   */
  configFlags?: readonly FlagValue[];
  /** Where the person chose options.mode when not with --mode (an editor's session/set_mode), for the record. */
  modeChoice?: ModeChoice;
  /**
   * The surface the person chose the session's model, agent and mode through, when not a terminal's
   * flags (a server's client): recorded so, never as a flag nobody typed.
   */
  chosenThrough?: ModeChoice;
  signal: AbortSignal;
}

/**
 * Opens the session a run works in, with everything settled before its first step: config and
 * the repository's trust, agent, mode and rules, the session and its lease, the model, hooks and
 * MCP servers the repository brings (judged), instructions and skills. A usage or config error
 * is thrown before anything is written.
 */
export async function openRuntime(input: OpenInput): Promise<Runtime> {
  const opening = await settleOpening(input);
  const life = sessionLife(opening.store);
  try {
    const started = await startSession(input, opening, life);
    return liveRuntime(input, opening, life, started);
  } catch (error) {
    await life.close();
    throw error;
  }
}

/** What is settled before the store holds anything of the session: config, trust, agent, authority. */
export interface Opening {
  store: SessionStore;
  config: LoadedConfig;
  agentChoice: ReturnType<typeof decideAgent>;
  prepared: RunAuthority;
  /** Where the model and mode were chosen: the launch's flags, or a command typed in the session. */
  choiceFace: Face;
  warn: (text: string) => void;
  /** The repository's MCP servers an untrusted config left out whole, with why (/mcp lists them). */
  mcpLeftOut?: Map<string, string>;
}

async function settleOpening(input: OpenInput): Promise<Opening> {
  const { cwd, options } = input;
  const warn = input.warn ?? warnOnStderr;
  const choiceFace: Face = input.launch ? "cli" : (input.face ?? "cli");
  const flags: FlagValue[] = [
    ...(options.model !== undefined ? [{ flag: "--model", path: ["model"], value: options.model }] : []),
    ...(options.maxSteps !== undefined ? [{ flag: "--max-steps", path: ["max_steps"], value: options.maxSteps }] : []),
    ...(input.configFlags ?? []),
  ];
  const loaded = loadConfig({ cwd, flags });
  // Pure and checked before the store is touched: an unknown agent or mode writes nothing.
  const commandAgent = options.command?.agent ? { ...options.command, agent: options.command.agent } : undefined;
  decideAgent(options.agent, loaded, commandAgent);
  // Tools never see the keys bosun itself reads: provider variables, whatever config references, inline config.
  setWithheldVariables(["BOSUN_CONFIG_CONTENT", ...referencedVariables(loaded)]);
  const store = SessionStore.open();
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
    const settle = (config: LoadedConfig) => {
      const agentChoice = decideAgent(options.agent, config, commandAgent, input.chosenThrough);
      const modeChoice = input.modeChoice ?? options.modeChoice ?? input.chosenThrough;
      const prepared = prepareAuthority({
        config,
        agent: agentChoice.agent,
        ...(options.mode !== undefined ? { modeFlag: options.mode } : {}),
        ...(modeChoice ? { modeChoice } : {}),
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
      const mcpLeftOut = trusted.leftOut ? leftOutServers(loaded, config, trusted.leftOut) : undefined;
      return { store, config, agentChoice, prepared, choiceFace, warn, ...(mcpLeftOut ? { mcpLeftOut } : {}) };
    };
    // Config's {file:} references, read before the rules existed, are read again under them (a
    // repository's `{file:.env}` stays unresolved), and the run is settled on what that leaves.
    // A config that names no file reads the same either way: settled once.
    if (!namesFiles(trusted.config)) return settle(trusted.config);
    const first = settle(trusted.config).prepared;
    const check = readCheck({ authority: first.authority, policy: first.policy });
    return settle(
      loadConfig({ cwd, flags, ...(filterProject ? { filterProject } : {}), readReference: referenceReader(check) }),
    );
  } catch (error) {
    store.close();
    throw error;
  }
}

/** Whether any layer's value, resolved or not, holds a `{file:}` reference. */
function namesFiles(config: LoadedConfig): boolean {
  return [...config.references, ...config.unresolved].some((ref) => JSON.stringify(ref.raw).includes("{file:"));
}

/** What the session was started with: its row and model, its gate, its tools and context. */
export interface Started {
  session: SessionInfo;
  model: ResolvedModel;
  gate: SessionGate;
  tools: Tool[];
  /** The tools as they stand: the MCP part replaced when a server changed its tools (read per step). */
  toolsNow: () => ToolVersion;
  runContext: RunContext;
  output: OutputFolder;
  target?: TargetAnswer;
  record: (decision: Decision) => void;
  /** The MCP servers' prompts, and how to get one. */
  mcp: Pick<McpConnections, "prompts" | "getPrompt" | "status" | "reconnect" | "instructions" | "now">;
  /** The session's side of delegation: the host its task tool runs delegates from, and the turn it runs them in. */
  delegation: {
    host: DelegationHost;
    during: <T>(turn: HostTurn, run: () => Promise<T>) => Promise<T>;
  };
}

async function startSession(input: OpenInput, opening: Opening, life: SessionLife): Promise<Started> {
  const { store, config, prepared, agentChoice } = opening;
  const startedMs = Date.now();
  const started = new Date(startedMs).toISOString();
  const { session, model, lease } = setUp(
    store,
    config,
    input.cwd,
    { ...input, face: opening.choiceFace, warn: opening.warn },
    agentChoice,
    prepared,
  );
  // The delegates' tokens and cost are the session's too.
  const children = new Set<string>();
  life.hold({ lease, usedSince: () => usageOf(store, session.id, children, startedMs) });
  // What was decided before the first step (a fork's copied decisions excluded).
  const setupDecisions = readDecisions(store, session.id).filter((d) => d.at >= started);
  for (const decision of setupDecisions) input.onDecision(decision);
  const target = setupDecisions.find((d) => d.seat === "session.target")?.answer as TargetAnswer | undefined;
  const record = (decision: Decision) => input.onDecision(recordDecision(store, session.id, decision));
  const gate = gateDeps({
    prepared,
    store,
    sessionId: session.id,
    auto: input.options.auto ?? false,
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
    sandbox: config.config.shell.sandbox,
    ...sandboxOrigin(config),
    record,
    signal: input.signal,
  });
  const opener = { ...(input.prompt ? { prompt: input.prompt } : {}), signal: input.signal, record };
  // What the repository's own config would run (hooks, MCP servers) runs only once judged.
  const allowed = await trustProjectCommands(config, () => gate.forTurn(opener), record, opening.warn);
  gate.settle((settled) => ({
    ...settled,
    ...(input.prompt ? { prompt: input.prompt } : {}),
    hooks: judgedHooks(settled.hooks, allowed),
  }));
  const resumed = target !== undefined && target.mode !== "new";
  await sessionStartHooks({ gate: gate.forTurn(opener), store, sessionId: session.id, resumed, record });
  if (resumed) carryOverJobs(store, session.id, life.jobs);
  // The person's questions (a server's form, the question tool) tell the notification hooks first.
  const question = input.question ? notifyingQuestionPrompt(() => gate.current(), input.question) : undefined;
  const mcp = await connectMcpServers(config, input.cwd, {
    ...untrustedServers(allowed, opening),
    confinements: allowed.confinements,
    record,
    warn: opening.warn,
    // The task and skill tools join later; their names are bosun's all the same.
    reserved: [...builtinTools().map((tool) => tool.name), "task", "skill", "question"],
    ...(question ? { question } : {}),
  });
  life.hold({ mcp });
  // What the model is told besides the conversation (seats context.instructions, context.skills).
  const { prepareRunContext } = await import("./context.js");
  const runContext = await prepareRunContext({
    config,
    agent: agentChoice.agent,
    cwd: input.cwd,
    workspace: prepared.authority.workspace,
    store,
    sessionId: session.id,
    check: gate.readCheck,
    serverInstructions: mcp.instructions(),
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
  const { tools, delegation } = sessionTools(input, opening, {
    session,
    model,
    gate,
    record,
    children,
    ...(question ? { question } : {}),
    found: [...runContext.tools, ...mcp.tools],
  });
  return {
    session,
    model,
    gate,
    tools,
    toolsNow: toolsNow(tools, mcp, agentChoice.agent.tools),
    runContext: followServerInstructions(runContext.context, mcp),
    output,
    ...(target ? { target } : {}),
    record,
    mcp,
    delegation,
  };
}

/** The repository's servers not to start, and why each (or its config left out): /mcp lists them as needing trust. */
function untrustedServers(allowed: ProjectCommandsAllowed, opening: Opening) {
  const leftOut = opening.mcpLeftOut ? { leftOut: opening.mcpLeftOut } : {};
  return { skip: allowed.skipped, untrusted: { judged: allowed.why, ...leftOut } };
}

/** The face's handle on the started session: turns, spans, what is offered and spent, and closing. */
function liveRuntime(input: OpenInput, opening: Opening, life: SessionLife, started: Started): Runtime {
  const { store, config, prepared } = opening;
  const { session, model, gate, tools, output, record, target } = started;
  const { cwd, options } = input;
  const toolContext = sessionToolContext(opening, life, started, input);
  let turns = 0;
  let running = false;
  // Undo's snapshots of the work tree: whether they can be taken is settled once a run.
  const snapshots = turnSnapshots(config, cwd);
  const calls = { store, config, sessionId: session.id, gate, record, tools: () => tools, toolContext };
  const { runCall, runSpan } = personCalls({ ...calls, outputPath: output.path, onDecision: input.onDecision });
  return {
    store,
    session,
    model,
    config,
    agent: opening.agentChoice.agent.name,
    mode: prepared.authority.mode.name,
    maxSteps: stepBudget(config, opening.agentChoice.agent).maxSteps,
    opened: { mode: target?.mode ?? "new", ...(target?.mode === "fork" ? { parent: target.from } : {}) },
    // The inputs runTurn judges them on: the same pure decider, so the two cannot disagree.
    offeredTools: () =>
      offeredNames(started.toolsNow().tools, gate.current(), MODES[prepared.authority.mode.name].tools, model, config),
    usage: life.usage,
    record,
    preCompact: lifecycleDeps(() => gate.current()).preCompact,
    runSpan,
    runCall,
    ...mcpHandles(started.mcp, record),
    jobs: () => life.jobs.list(),
    async turn(message, io) {
      turns++;
      // Asked now, before the turn puts its message on record: does this session await its title?
      if (turns === 1 && awaitsTitle(store, session.id)) life.titles.push(title(message.text));
      const { runTurn } = await import("../loop/turn.js");
      const deps = turnDeps(io);
      const record = (decision: Decision) =>
        io.emit({ type: "decision", decision: recordDecision(store, session.id, decision) });
      // What nobody could approve in its delegates was denied in this turn too (exit 3, "N denied").
      let delegatesDenied = 0;
      const turnParts = {
        ...(io.prompt ? { prompt: io.prompt } : {}),
        emit: io.emit,
        signal: io.signal,
        record,
        countDenied: (denied: number) => {
          delegatesDenied += denied;
        },
      };
      running = true;
      const outcome = await started.delegation
        .during(turnParts, () => runTurn(message, deps))
        .finally(() => (running = false));
      return { ...outcome, denied: outcome.denied + delegatesDenied };
    },
    ...revertHandles({ store, sessionId: session.id, workspace: workspaceOf(cwd), config, record }, () => running),
    close: life.close,
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
      warn: opening.warn,
      awaitsTitle: true,
    });
  }

  function turnDeps(io: TurnIo): Parameters<typeof import("../loop/turn.js").runTurn>[1] {
    // This turn's person and signal (Esc in the terminal cancels this turn, not the session); its
    // decisions reach whoever shows it, as the loop's own do.
    const parts = {
      ...(io.prompt ? { prompt: io.prompt } : {}),
      signal: io.signal,
      record: (decision: Decision) =>
        io.emit({ type: "decision", decision: recordDecision(store, session.id, decision) }),
    };
    return {
      store,
      session,
      config,
      model,
      tools,
      toolsNow: started.toolsNow,
      offerTools: MODES[prepared.authority.mode.name].tools,
      context: started.runContext,
      // Asked at each call: a fresh frozen gate as things stand, so the person's "always" for one
      // call is in force for the next one judged, in this turn too.
      gate: () => gate.forTurn(parts),
      ...stepBudget(config, opening.agentChoice.agent),
      signal: io.signal,
      emit: io.emit,
      ...(io.steering ? { steering: io.steering } : {}),
      background: started.delegation.host.background,
      // The repository's lifecycle hooks only once judged: the gate holds the hooks project.command let run.
      ...lifecycleDeps(() => gate.forTurn(parts)),
      ...goalDeps({ turn: io.goal, session: options.goal }, config, { runSpan, cwd }, io.prompt ?? input.prompt),
      overflowDir: output.path,
      snapshots,
      toolContext,
    };
  }
}

/** What every call of the session's tools is handed: where, what it read, its jobs, limits and saved output. */
function sessionToolContext(opening: Opening, life: SessionLife, started: Started, input: OpenInput) {
  const { store, config } = opening;
  const { cwd, access } = input;
  const { session, output } = started;
  const files = createFileTracker({
    cwd,
    initial: seenFiles(store, session.id),
    onSeen: (path, seen) => store.append(session.id, "file.seen", { path, ...(seen ?? { gone: true }) }),
  });
  return { cwd, files, jobs: life.jobs, limits: toolLimits(config), output, ...(access ? { access } : {}) };
}

/** A turn's step budget: --max-steps (the person's), else the agent's max_steps, else config max_steps. */
export function stepBudget(config: LoadedConfig, agent: Agent): { maxSteps: number; maxStepsKey?: string } {
  if (agent.maxSteps === undefined || config.origins.get("max_steps")?.layer === "flag") {
    return { maxSteps: config.config.max_steps };
  }
  return { maxSteps: agent.maxSteps, maxStepsKey: `agent.${agent.name}.max_steps` };
}
