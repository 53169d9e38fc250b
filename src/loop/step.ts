import type { ModelMessage, ToolSet } from "ai";
import type { CallPipeline } from "../calls/pipeline.js";
import { type TextHold, textHold, withoutSpans } from "../calls/text/hold.js";
import { tidy } from "../calls/text/prose.js";
import { type ShimMode, shimCalls } from "../calls/text/shim.js";
import type { EnvironmentWatch } from "../context/environment.js";
import { fitImages } from "../context/images.js";
import type { Decision } from "../contracts/decisions.js";
import type { ModelToolCall } from "../contracts/tool-calls.js";
import type { BackgroundJob, Tool, WebVerdict } from "../contracts/tools.js";
import type { ModelOptionsAnswer } from "../model/reasoning.js";
import { type RequestResult, requestModel } from "../model/request.js";
import { maxOutputOf, type ResolvedModel } from "../model/resolve.js";
import { DECISION_EVENT } from "../seats/record.js";
import { latestTodos, openTodos, todoLines } from "../session/todos.js";
import type { EventTail } from "../store/event-tail.js";
import type { ShellJob } from "../tools/jobs.js";
import { type GoalProgress, goalSpent } from "./goal-check.js";
import { driftFromJournal } from "./journal-check.js";
import { budgetNote, decideDone, decideLength, decideLimit } from "./judge.js";
import { offerTools } from "./offer.js";
import { admitSteering } from "./prompt.js";
import type { TurnRecorder } from "./recorder.js";
import { mayChangeFiles, snapshotRecord } from "./snapshot-step.js";
import { environmentNotice } from "./step-context.js";
import { afterStopHooks } from "./stop.js";
import { textCallsAsText } from "./text-results.js";
import { switchToText } from "./text-switch.js";
import type { TurnDeps, TurnOutcome } from "./turn.js";
import { compactIfNeeded, conversationView, recoverOverflow, type WindowDeps } from "./window.js";

/** A turn under way: what it settled at its start, and what its steps have counted so far. */
export interface TurnRun {
  deps: TurnDeps;
  recorder: TurnRecorder;
  pipeline: CallPipeline;
  /** The tools sent (seat context.tools), the system prompt, and their size in characters. */
  modelTools?: ToolSet;
  system: string;
  fixedChars: number;
  /** The rule that let the provider's own web search be sent (allowed outright), when it was. */
  providerRuns?: WebVerdict;
  /** Which version of the tool set the step's requests offer, and how calls are given a new one. */
  tools: { version: number; set(tools: readonly Tool[]): void; now(): readonly Tool[] };
  /** This turn's number (session/turns.ts), for its snapshots; whether it took one (then its end takes one too). */
  turn: number;
  snapshotted: boolean;
  /** The session's log in memory, followed as it grows (one read of the whole log a turn). */
  log: EventTail;
  /** Where the agent works, asked of git again only when something may have changed it. */
  where: EnvironmentWatch;
  /** The model that answers: after a fallback, the one that answered (model.fallback was recorded). */
  model: ResolvedModel;
  /** Whether each step checks the log in memory against the journal (journal-check.ts). */
  checkJournal: boolean;
  denied: number;
  empties: number;
  continues: number;
  /** How many times this turn's stop hooks sent the agent back (hooks.stop_limit bounds it). */
  stopBlocks: number;
  /** Whether this turn reminded the model of its open todo items (seat turn.done, once a turn). */
  todoReminded: boolean;
  /** Tool outputs already sent as a note (context.prune), and the step that last overflowed the window. */
  pruned: Set<string>;
  overflowedAt?: number;
  /** Whether calls written in the answer's text are read (seat call.shim): configured, detected, or not. */
  shim: ShimMode;
  /** Switched to text mode for the rest of the turn: the model wrote its calls as text (text-switch.ts). */
  textMode?: boolean;
  /** What the last `model.options` record says (recordOptions): a step sending the same records nothing. */
  optionsKey?: string;
  /** The text of the last assistant message, for whoever reports the turn's result. */
  lastText: string;
  /** What the turn spent toward its goal (deps.goal), and how its checks went. */
  goal: GoalProgress;
}

/** How a turn ends, before the counts it carries are added. */
export type Ending = Omit<TurnOutcome, "denied" | "lastText">;

/** What a step leads to: the end of the turn, the same step again (after a compaction), or the next. */
export type StepNext = Ending | "again" | undefined;

/** One step: the step budget, what happened meanwhile, the model's request, and its reply. */
export async function runStep(run: TurnRun, step: number): Promise<StepNext> {
  const { deps, recorder } = run;
  const limit = decideLimit({ step, maxSteps: deps.maxSteps, source: maxStepsSource(deps) });
  if (limit) {
    recorder.decision({ seat: "turn.limit", ...limit, subject: { step } });
    return {
      status: "limit",
      steps: step - 1,
      message: `stopped: the turn reached its limit of ${deps.maxSteps} steps (${deps.maxStepsKey ?? "max_steps"})`,
    };
  }
  const spent = goalSpent(run, step);
  if (spent) return spent;
  for (const job of deps.toolContext.jobs.takeFinished()) recorder.notice({ text: jobNotice(run, job) });
  for (const text of deps.background?.takeFinished() ?? []) {
    run.where.mayHaveChanged();
    recorder.notice({ text });
  }
  if (step > 1) await refreshTools(run, step);
  // What the person typed meanwhile to steer this turn goes in before the next request.
  // Each passes the prompt hooks, as the turn's first message did (seat turn.prompt_hook).
  if (step > 1)
    for (const text of deps.steering?.() ?? [])
      await admitSteering(text, deps.promptHooks, recorder, (message) => deps.emit({ type: "error", message }));
  const messages = await stepMessages(run, step);
  if (!Array.isArray(messages)) return messages;
  // Text that may hold calls is shown only up to where one could start, until the answer is whole (hold.ts).
  const hold = run.shim === "off" ? undefined : textHold();
  return afterReply(run, step, await ask(run, step, messages, hold), hold);
}

/**
 * A new version of the tool set (an MCP server changed its tools) is offered from this step:
 * judged again (seat context.tools, saying why), and calls from now on name the new set.
 */
async function refreshTools(run: TurnRun, step: number): Promise<void> {
  const now = run.deps.toolsNow?.();
  if (!now || now.version === run.tools.version) return;
  const offer = await offerTools(run.deps, now.tools, run.textMode ? { text: true } : undefined);
  const { modelTools, system, fixedChars, providerRuns } = { modelTools: undefined, ...offer.sent };
  if (modelTools) run.modelTools = modelTools;
  else delete run.modelTools;
  if (providerRuns) run.providerRuns = providerRuns;
  else delete run.providerRuns;
  Object.assign(run, { system, fixedChars });
  run.tools.version = now.version;
  run.tools.set(now.tools);
  const changed = { rule: "tool set changed", detail: `version ${now.version}: a server's tools changed` };
  run.recorder.decision({ ...offer.decision, reasons: [changed, ...offer.decision.reasons], subject: { step } });
}

function maxStepsSource(deps: TurnDeps): string {
  return deps.config.origins.get(deps.maxStepsKey ?? "max_steps")?.source ?? "built-in";
}

function jobNotice(run: TurnRun, job: BackgroundJob): string {
  run.where.mayHaveChanged();
  const ended =
    job.exitCode === null || job.exitCode === undefined
      ? `was stopped (${(job as ShellJob).signal ?? "killed"})`
      : `finished with exit code ${job.exitCode}`;
  return `Background job ${job.id} (\`${job.command}\`) ${ended}. Output tail:\n${job.output.slice(-4000)}`;
}

function windowOf(run: TurnRun, step: number): WindowDeps & { model: ResolvedModel; step: number } {
  const { deps } = run;
  const record = (decision: Decision) => run.recorder.decision(decision);
  return {
    store: deps.store,
    sessionId: deps.session.id,
    config: deps.config,
    record,
    signal: deps.signal,
    ...(deps.preCompact ? { preCompact: deps.preCompact } : {}),
    model: run.model,
    step,
  };
}

/** The messages of a step's request: the environment if it changed, the window compacted if need be. */
async function stepMessages(run: TurnRun, step: number): Promise<ModelMessage[] | Ending> {
  // The session's events: what was appended since the last step, read onto those in memory.
  let events = run.log.events();
  if (step > 1) {
    const environment = await environmentNotice(events, run.where);
    if (environment) {
      run.recorder.notice(environment);
      events = run.log.events();
    }
  }
  const window = windowOf(run, step);
  const sized = await compactIfNeeded({ ...window, events, fixedChars: run.fixedChars });
  if (sized.error) return { status: "failed", steps: step - 1, message: sized.error };
  if (sized.compacted) events = run.log.events();
  const budget = budgetNote(step, run.deps.maxSteps);
  const projected = conversationView(window, step, run.pruned, events);
  if (run.checkJournal) assertNoDrift(run, `step ${step}, before the request`);
  if (budget) projected.push({ role: "user", content: `[bosun] ${budget}` });
  // Results of calls the model wrote as text go back as text (text-results.ts).
  return fitImages(textCallsAsText(projected), { accepts: run.model.info.images === true }).messages;
}

function assertNoDrift(run: TurnRun, when: string): void {
  const drift = driftFromJournal(run.log.events(), run.deps.store.events(run.deps.session.id));
  if (drift) throw new Error(`${when}: the log in memory drifted from the journal: ${drift}`);
}

async function ask(run: TurnRun, step: number, messages: ModelMessage[], hold?: TextHold): Promise<RequestResult> {
  const { deps, model } = run;
  return requestModel({
    model,
    config: deps.config,
    system: run.system,
    messages,
    // A model configured without tool support gets none (seat context.tools).
    ...(run.modelTools ? { tools: run.modelTools } : {}),
    // Its output limit bounds each reply, unless bosun only assumed it (model/resolve.ts).
    ...maxOutputOf(model),
    signal: deps.signal,
    step,
    // The session's steps share one prefix: cached where the provider caches (model/cache-plan.ts).
    cache: { key: deps.session.id },
    record: (decision) => run.recorder.decision(decision),
    options: {
      ...(deps.context.agent ? { agent: deps.context.agent } : {}),
      onOptions: (used, decision) => recordOptions(run, step, used, decision),
    },
    onEvent: (event) => {
      if (event.type === "text") {
        const shown = hold ? hold.push(event.text) : event.text;
        if (shown) deps.emit({ type: "text", text: shown });
      }
      if (event.type === "reasoning") deps.emit({ type: "reasoning", text: event.text });
      if (event.type === "provider_call") recordProviderCall(run, step, event.call);
    },
    onWait: (waiting) => deps.emit({ type: "model_wait", waiting }),
    onUsage: (used, usage) => {
      const cost = run.recorder.usage(used, usage);
      run.goal.cost += cost ?? 0;
      deps.emit({ type: "usage", step, model: used.ref, usage, ...(cost !== undefined ? { cost } : {}) });
    },
  });
}

/**
 * Seat `model.options`, on record once for a session and again only when it changes (another
 * agent, a fallback model, a config edit): a step that sends what the last record says records
 * nothing. The last record is looked up once a turn, from the newest event back.
 */
function recordOptions(run: TurnRun, step: number, model: ResolvedModel, decision: ModelOptionsAnswer): void {
  const key = JSON.stringify([model.ref, decision.holder, decision.answer]);
  run.optionsKey ??= lastOptionsKey(run);
  if (run.optionsKey === key) return;
  run.optionsKey = key;
  run.recorder.decision({ seat: "model.options", ...decision, subject: { step, model: model.ref } });
}

function lastOptionsKey(run: TurnRun): string {
  const events = run.log.events();
  for (let at = events.length - 1; at >= 0; at--) {
    const event = events[at];
    if (event?.type !== DECISION_EVENT) continue;
    const decision = event.data as Decision;
    if (decision.seat !== "model.options") continue;
    return JSON.stringify([decision.subject?.model, decision.holder, decision.answer]);
  }
  return "";
}

/**
 * A search the provider ran itself, before bosun saw it: nothing is left to judge, so the record
 * says what was run and which rule allowed it outright when the search tool was sent (seat
 * call.permission, held by that rule's holder).
 */
function recordProviderCall(run: TurnRun, step: number, call: ModelToolCall): void {
  const allowed = run.providerRuns;
  const input = JSON.stringify(call.input ?? {});
  run.recorder.decision({
    seat: "call.permission",
    holder: allowed?.holder ?? "code",
    answer: "allow",
    reasons: [
      {
        rule: "run by the provider",
        detail: `${call.name} ${input.length > 200 ? `${input.slice(0, 200)}…` : input}: the model's provider ran it itself; sent because ${allowed?.reason ?? "web:search is allowed outright"}`,
        decisive: true,
      },
    ],
    subject: { step, call: call.id, tool: call.name },
  });
}

/** The reply on record, then what it leads to: the end of the turn, its calls run, or the next step. */
async function afterReply(run: TurnRun, step: number, result: RequestResult, hold?: TextHold): Promise<StepNext> {
  run.model = result.model;
  // The request was handed the messages: it must not have changed the events they came from.
  if (run.checkJournal) assertNoDrift(run, `step ${step}, after the request`);
  // Too long for the model, before any output: compact once and try the step again (a second time is an error).
  if (result.status === "failed" && result.error.class === "context_overflow") {
    const retry = await recoverOverflow(windowOf(run, step), run.overflowedAt === step);
    if (!retry.again) return { status: "failed", steps: step, message: retry.message, errorClass: "context_overflow" };
    run.overflowedAt = step;
    return "again";
  }
  // Calls written as text (seat call.shim): on record as the answer's calls, then gated like native ones.
  const shimmed =
    result.status === "complete" && result.toolCalls.length === 0
      ? shimCalls({ text: result.text, mode: run.shim, tools: run.tools.now().map((t) => t.name), step })
      : undefined;
  if (shimmed && shimmed.calls.length > 0) result = { ...result, toolCalls: shimmed.calls };
  // The text held back, shown now without what was read as calls: those show as calls (the journal keeps it all).
  const spans = shimmed && shimmed.calls.length > 0 ? shimmed.spans : [];
  const rest = hold?.end(result.text, spans) ?? "";
  const left = spans.length > 0 ? tidy(rest) : rest;
  if (left) run.deps.emit({ type: "text", text: left });
  // Only a whole reply's: a part cut off lacks what makes it replayable (a signature, the encrypted content).
  const reasoning =
    result.status === "complete" ? (result.reasoning ?? []).filter((part) => part.text !== "" || part.metadata) : [];
  run.recorder.assistant({
    text: result.text,
    ...(reasoning.length > 0 ? { reasoning } : {}),
    toolCalls: result.toolCalls,
    finish: result.status === "complete" ? result.finishReason : "error",
    model: result.model.ref,
    step,
    status: result.status,
  });
  for (const decision of shimmed?.decisions ?? []) run.recorder.decision(decision);
  // Detected: the rest of the turn is in text mode (seat call.shim), its results already go back as text.
  if (run.shim === "detect" && spans.length > 0) run.recorder.decision(await switchToText(run, step));
  run.lastText = spans.length > 0 ? tidy(withoutSpans(result.text, spans)) : result.text;
  if (result.status === "aborted") return { status: "cancelled", steps: step };
  if (result.status === "failed" || result.status === "interrupted") {
    const what =
      result.status === "interrupted" ? "the response broke off after it started" : "the model request failed";
    return {
      status: "failed",
      steps: step,
      message: `${what}: ${result.error.class}: ${result.error.message}`,
      errorClass: result.error.class,
    };
  }
  if (result.toolCalls.length === 0) return replyWithoutCalls(run, step, result);
  await snapshotBefore(run, step, result.toolCalls);
  const outcome = await run.pipeline.run(result.toolCalls, step);
  run.denied += outcome.denied;
  return outcome.stop ? { status: outcome.stop.status, steps: step, message: outcome.stop.message } : undefined;
}

/** Undo's snapshot of the work tree, before calls that may change it run (loop/snapshot-step.ts). */
async function snapshotBefore(run: TurnRun, step: number, calls: RequestResult["toolCalls"]): Promise<void> {
  const snapshots = run.deps.snapshots;
  if (!snapshots || !mayChangeFiles(calls, run.tools.now())) return;
  const record = await snapshotRecord(snapshots, run.turn, step);
  if (record && "tree" in record) run.snapshotted = true;
  if (record) run.recorder.snapshot(record);
}

/** A reply without calls: continued when cut off at the output limit, asked again when empty, else the end. */
async function replyWithoutCalls(
  run: TurnRun,
  step: number,
  result: Extract<RequestResult, { status: "complete" }>,
): Promise<StepNext> {
  const { recorder } = run;
  const length = decideLength({ finishReason: result.finishReason, continuedSoFar: run.continues });
  if (length) {
    recorder.decision({ seat: "turn.continue_after_length", ...length, subject: { step } });
    if (length.answer === "fail") {
      return {
        status: "failed",
        steps: step,
        message: "the reply was still cut off at the output limit after 2 continuations",
      };
    }
    run.continues++;
    recorder.notice({ text: "Your reply was cut off at the output limit. Continue exactly where it stopped." });
    return undefined;
  }
  const background = run.deps.background;
  const done = decideDone({
    toolCalls: 0,
    text: result.text,
    emptySoFar: run.empties,
    background: background?.running() ?? 0,
    openTodos: openTodos(latestTodos(run.log.events())).map((item) => item.content),
    todoReminded: run.todoReminded,
  });
  recorder.decision({ seat: "turn.done", ...done, subject: { step } });
  if (done.answer === "remind-todo") {
    run.todoReminded = true;
    const open = openTodos(latestTodos(run.log.events()));
    recorder.notice({
      text: `Your todo list still has open items:\n${todoLines(open)}\nFinish them, or update the list and say why they stay open.`,
    });
    return undefined;
  }
  if (done.answer === "wait") {
    await background?.next(run.deps.signal);
    return undefined;
  }
  if (done.answer === "retry-empty") {
    run.empties++;
    recorder.notice({ text: "Your last reply was empty. Continue the task, or reply with a summary if it is done." });
    return undefined;
  }
  if (done.answer === "fail-empty") {
    return { status: "failed", steps: step, message: "the model replied with nothing, three times" };
  }
  return afterStopHooks(run, step, result.text);
}
