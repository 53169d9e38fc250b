import { outputBounds } from "../calls/bound.js";
import { callPipeline } from "../calls/pipeline.js";
import type { CallEvent } from "../calls/recorder.js";
import { modeDecision } from "../calls/text/shim.js";
import type { LoadedConfig } from "../config/load.js";
import { watchEnvironment } from "../context/environment.js";
import { nestedDecision } from "../context/instructions.js";
import type { Tool, ToolContext, ToolVersion } from "../contracts/tools.js";
import type { ResolvedModel } from "../model/resolve.js";
import type { Usage } from "../model/usage.js";
import type { GateDeps } from "../permission/gate/gate.js";
import type { UserMessage } from "../session/events.js";
import { turnsOf } from "../session/turns.js";
import { EventTail } from "../store/event-tail.js";
import type { SessionInfo, SessionStore } from "../store/session-store.js";
import type { TurnGoal } from "./goal.js";
import { goalProgress } from "./goal-check.js";
import { checkingJournal } from "./journal-check.js";
import { offerTools, toolsKey } from "./offer.js";
import { admitPrompt, type PromptHooks } from "./prompt.js";
import { turnRecorder } from "./recorder.js";
import { snapshotRecord, type TurnSnapshots } from "./snapshot-step.js";
import { type Ending, runStep, type TurnRun } from "./step.js";
import { environmentNotice, noteNestedInstructions, type RunContext } from "./step-context.js";
import type { StopHooks } from "./stop.js";
import type { CompactHooks } from "./window.js";

/** What a face is shown of a turn as it goes: the calls' events, and the model's text, waits and usage. */
export type RunEvent =
  | CallEvent
  | { type: "text"; text: string }
  /** The model's thinking as it streams (shown folded; `--format json` carries it as `reasoning`). */
  | { type: "reasoning"; text: string }
  /** A model request started waiting (true) or got its first output or ended (false): for the TUI's elapsed seconds. */
  | { type: "model_wait"; waiting: boolean }
  /** One model request of a step ended: its tokens, and its cost in US dollars when the model's prices are known. */
  | { type: "usage"; step: number; model: string; usage: Usage; cost?: number }
  | { type: "error"; message: string; class?: string }
  /** A delegate's progress: its state, and each event of its own turn as it goes (runtime/delegate.ts). */
  | DelegateEvent;

/** What a face is shown of a delegate its turn started: `call` is the parent's task call, `task_id` the delegate's session. */
export interface DelegateEvent {
  type: "delegate";
  call: string;
  task_id: string;
  agent: string;
  description?: string;
  state: "waiting" | "running" | "event" | TurnStatus;
  /** With state "event": one event of the delegate's turn (its own delegates' nested the same way). */
  event?: RunEvent;
}

/** `blocked`: a prompt hook kept the person's message out; no step ran. */
export type TurnStatus = "done" | "limit" | "repeat" | "failed" | "cancelled" | "blocked";

export interface TurnOutcome {
  status: TurnStatus;
  steps: number;
  /** Calls refused because nobody could approve them. */
  denied: number;
  message?: string;
  /** The error class, when a model failure ended the turn. */
  errorClass?: string;
  /** The text of the turn's last assistant message ("" when it had none, or no reply came). */
  lastText?: string;
}

export interface TurnDeps {
  store: SessionStore;
  session: SessionInfo;
  config: LoadedConfig;
  model: ResolvedModel;
  /** Every tool a call may name; those the rules deny outright are not offered (seat context.tools). */
  tools: readonly Tool[];
  /**
   * The tool set now, when it can change (an MCP server's tools/list_changed): read at each step
   * boundary, so a new version is offered from the next step and never under a running one.
   */
  toolsNow?: () => ToolVersion;
  /** False when the mode runs no tools (chat): the model is offered none. */
  offerTools: boolean;
  /** The agent's prompt, skills and instruction files: the system prompt is built from them each step. */
  context: RunContext;
  /**
   * The authority layer as things stand: every call passes its gate before it runs. Asked again
   * for each call, so what the person allowed "always" a moment ago is in force for the next.
   */
  gate: () => Readonly<GateDeps>;
  maxSteps: number;
  /** The config key `maxSteps` comes from, for the record (default `max_steps`; a delegate's budget has its own). */
  maxStepsKey?: string;
  signal: AbortSignal;
  emit: (event: RunEvent) => void;
  /** Messages the person typed to steer the running turn: taken at each step boundary. */
  steering?: () => string[];
  /**
   * Work the turn started that goes on without it (background delegates): what finished is told
   * at the next step, and the turn does not end while any runs (seat turn.done waits for it).
   */
  background?: { running(): number; takeFinished(): string[]; next(signal: AbortSignal): Promise<void> };
  /** The session's prompt hooks (seat turn.prompt_hook), run on the message first; a delegate's turn has none. */
  promptHooks?: PromptHooks;
  /** The session's pre_compact hooks (seat compaction.hook), before the turn compacts; a delegate's turn has none. */
  preCompact?: CompactHooks;
  /** The session's stop hooks (seat turn.stop_hook), run when the model is done; a delegate's turn has none. */
  stopHooks?: StopHooks;
  /** Commands that must pass before the turn is done (--until, /goal, a recipe's checks; seat turn.goal). */
  goal?: TurnGoal;
  overflowDir: string;
  /** Undo's snapshots of the work tree (loop/snapshot-step.ts); a delegate's turn takes none (its parent's did). */
  snapshots?: TurnSnapshots;
  toolContext: Omit<ToolContext, "callId" | "signal">;
}

/**
 * One turn: the person's message, then model steps and tool calls until the model is done or a
 * seat stops it. The loop decides nothing itself: every question goes to a decider and the
 * answer is recorded (and shown) before it is acted on. It writes only through its recorder,
 * and runs calls only through the call pipeline: it knows no tool by name.
 */
export async function runTurn(message: UserMessage, deps: TurnDeps): Promise<TurnOutcome> {
  // One sync of the disk before a call that may change anything, and one at the end, not one per event.
  const ungroup = deps.store.groupCommits();
  try {
    const run = await startTurn(message, deps);
    if (!("recorder" in run)) return run;
    for (let step = 1; ; step++) {
      const next = await runStep(run, step);
      if (next === "again") step--;
      else if (next) return await endTurn(run, next);
    }
  } finally {
    ungroup();
  }
}

/**
 * What a turn settles before its first step, and the person's message on record — unless a
 * prompt hook blocked it (seat turn.prompt_hook): then the turn ends before it starts.
 */
async function startTurn(message: UserMessage, deps: TurnDeps): Promise<TurnRun | TurnOutcome> {
  const { config } = deps;
  const recorder = turnRecorder(deps.store, deps.session.id, deps.emit);
  const admitted = await admitPrompt(message, deps.promptHooks, recorder);
  if ("blocked" in admitted) {
    const message = `the prompt was blocked by a hook (${admitted.hook}): ${admitted.blocked}`;
    recorder.ended({ status: "blocked", steps: 0, message });
    deps.emit({ type: "error", message });
    return { status: "blocked", steps: 0, denied: 0, message, lastText: "" };
  }
  const current = deps.toolsNow?.() ?? { version: 0, tools: deps.tools };
  const offer = await offerTools(deps, current.tools);
  const log = new EventTail((seq) => deps.store.eventsSince(deps.session.id, seq));
  const where = watchEnvironment(deps.context.cwd);
  // Where the agent works, when it changed since the session was last told: before the message it frames.
  const environment = await environmentNotice(log.events(), where);
  recorder.atomically(() => {
    if (environment) recorder.notice(environment);
    recorder.user(message);
    if (admitted.context.length > 0) recorder.notice({ text: admitted.context.join("\n\n") });
    recorder.decision({ ...offer.decision, subject: { step: 1 } });
    if (offer.shim === "configured") recorder.decision(modeDecision("config", "text", [], 1, toolsKey(deps.model)));
  });
  // The tools a call may name: the step's own set, replaced only between steps (refreshTools).
  const callable = { tools: current.tools };
  const pipeline = callPipeline({
    get tools() {
      return callable.tools;
    },
    gate: deps.gate,
    recorder,
    bounds: outputBounds(config, deps.overflowDir),
    signal: deps.signal,
    toolContext: deps.toolContext,
    parallel: config.config.parallel_calls,
    repeatLimit: config.config.repeat_limit,
    // The next step asks git again.
    onChange: () => where.mayHaveChanged(),
    // A file shown in a subfolder with its own AGENTS.md: that file joins the conversation, once.
    onOpened: (path, subject) => {
      const nested = noteNestedInstructions(recorder, deps.context, path);
      if (nested.added.length + nested.skipped.length > 0)
        recorder.decision({ ...nestedDecision(nested.added, path, nested.skipped), subject });
    },
  });
  return {
    deps,
    recorder,
    pipeline,
    ...offer.sent,
    shim: offer.shim,
    tools: { version: current.version, set: (tools) => (callable.tools = tools), now: () => callable.tools },
    // Counted once a turn, not each step: the turns so far, this one's message among them.
    turn: deps.snapshots ? turnsOf(log.events()).length : 0,
    snapshotted: false,
    log,
    where,
    model: deps.model,
    checkJournal: checkingJournal(),
    denied: 0,
    empties: 0,
    continues: 0,
    stopBlocks: 0,
    todoReminded: false,
    pruned: new Set(),
    lastText: "",
    goal: goalProgress(),
  };
}

/** The turn's end on record (and shown, when it is an error); after its snapshot, when it took any. */
async function endTurn(run: TurnRun, ended: Ending): Promise<TurnOutcome> {
  const outcome: TurnOutcome = { ...ended, denied: run.denied, lastText: run.lastText };
  if (run.snapshotted && run.deps.snapshots) {
    const record = await snapshotRecord(run.deps.snapshots, run.turn, "end");
    if (record) run.recorder.snapshot(record);
  }
  run.recorder.ended({
    status: outcome.status,
    steps: outcome.steps,
    ...(outcome.message ? { message: outcome.message } : {}),
  });
  if (outcome.message && outcome.status !== "done") {
    run.deps.emit({
      type: "error",
      message: outcome.message,
      ...(outcome.errorClass ? { class: outcome.errorClass } : {}),
    });
  }
  return outcome;
}
