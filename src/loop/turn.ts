import type { LoadedConfig } from "../config/load.js";
import { type EnvironmentWatch, watchEnvironment } from "../context/environment.js";
import { fitImages } from "../context/images.js";
import { nestedDecision } from "../context/instructions.js";
import { decideToolsOffered } from "../context/tools-offered.js";
import type { Confinement } from "../contracts/confinement.js";
import type { Decision, RecordedDecision } from "../contracts/decisions.js";
import type { CallDescription } from "../contracts/requests.js";
import type { ModelToolCall } from "../contracts/tool-calls.js";
import type { Tool, ToolContext } from "../contracts/tools.js";
import { requestModel } from "../model/request.js";
import type { ResolvedModel } from "../model/resolve.js";
import { recordUsage } from "../model/session-usage.js";
import type { Usage } from "../model/usage.js";
import { unreadableFiles } from "../permission/gate/confine.js";
import { afterCall, type GateDeps, gate, mayReadFound, recheck } from "../permission/gate/gate.js";
import { mayChange } from "../permission/rules/call-requests.js";
import { recordDecision } from "../seats/record.js";
import { type AssistantMessage, type CallFinished, EV, type UserMessage } from "../session/events.js";
import { EventTail } from "../store/event-tail.js";
import type { SessionInfo, SessionStore } from "../store/session-store.js";
import { boundOutput } from "../tools/bound.js";
import type { ShellJob } from "../tools/jobs.js";
import { lastLines } from "../util/lines.js";
import { batches, mapLimit } from "../util/pool.js";
import { prepareCall } from "./calls/prepare.js";
import { checkingJournal, driftFromJournal } from "./journal-check.js";
import { budgetNote, callSignature, decideDone, decideLength, decideLimit, decideRepeat } from "./judge.js";
import { toModelTools } from "./model-tools.js";
import { environmentNotice, noteNestedInstructions, type RunContext, stepSystem } from "./step-context.js";
import { compactIfNeeded, conversationView, recoverOverflow } from "./window.js";

export type RunEvent =
  | { type: "text"; text: string }
  | { type: "tool_call"; id: string; name: string; input: unknown }
  | {
      type: "tool_result";
      id: string;
      name: string;
      summary: string;
      isError: boolean;
      /** What a person sees on expanding the call: an edit's diff, a command's output and status. */
      detail?: string;
    }
  | { type: "decision"; decision: RecordedDecision }
  /** A model request started waiting (true) or got its first output or ended (false): for the TUI's elapsed seconds. */
  | { type: "model_wait"; waiting: boolean }
  /** One model request of a step ended: its tokens, and its cost in US dollars when the model's prices are known. */
  | { type: "usage"; step: number; model: string; usage: Usage; cost?: number }
  | { type: "error"; message: string; class?: string };

export type TurnStatus = "done" | "limit" | "repeat" | "failed" | "cancelled";

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
  /** False when the mode runs no tools (chat): the model is offered none. */
  offerTools: boolean;
  /** The agent's prompt, skills and instruction files: the system prompt is built from them each step. */
  context: RunContext;
  /** The authority layer: every call passes its gate before it runs. */
  gate: GateDeps;
  maxSteps: number;
  signal: AbortSignal;
  emit: (event: RunEvent) => void;
  /** Messages the person typed to steer the running turn: taken at each step boundary. */
  steering?: () => string[];
  overflowDir: string;
  toolContext: Omit<ToolContext, "callId" | "signal">;
}

/**
 * One turn: the person's message, then model steps and tool calls until the model is done or a
 * seat stops it. The loop decides nothing itself: every question goes to a decider and the
 * answer is recorded (and shown) before it is acted on.
 */
export async function runTurn(message: UserMessage, deps: TurnDeps): Promise<TurnOutcome> {
  // One sync of the disk before a call that may change anything, and one at the end, not one per event.
  const ungroup = deps.store.groupCommits();
  try {
    return await turn(message, deps);
  } finally {
    ungroup();
  }
}

async function turn(message: UserMessage, deps: TurnDeps): Promise<TurnOutcome> {
  const { store, session, config, signal } = deps;
  const record = (decision: Decision) =>
    deps.emit({ type: "decision", decision: recordDecision(store, session.id, decision) });
  const notice = (text: string) => store.append(session.id, EV.notice, { text });
  // The last assistant message's text, for whoever reports the turn's result (`done.result` of --format json).
  let lastText = "";
  const end = (ended: Omit<TurnOutcome, "lastText">): TurnOutcome => {
    const outcome: TurnOutcome = { ...ended, lastText };
    store.append(
      session.id,
      EV.turnEnded,
      {
        status: outcome.status,
        steps: outcome.steps,
        ...(outcome.message ? { message: outcome.message } : {}),
      },
      { durable: true },
    );
    if (outcome.message && outcome.status !== "done") {
      deps.emit({
        type: "error",
        message: outcome.message,
        ...(outcome.errorClass ? { class: outcome.errorClass } : {}),
      });
    }
    return outcome;
  };
  // Judged once a turn: the rules that could hide a tool do not change within one.
  const offered = decideToolsOffered({
    tools: deps.tools,
    authority: deps.gate.authority,
    policy: deps.gate.policy.rules,
    modeRunsTools: deps.offerTools,
    modelTakesTools: deps.model.info.tools !== false,
  });
  const modelTools = toModelTools(offered.offered);
  const system = stepSystem(
    deps.context,
    offered.offered.map((t) => t.name),
  );
  const repeatLimit = config.config.repeat_limit;
  const maxStepsSource = config.origins.get("max_steps")?.source ?? "built-in";
  const recent: string[] = [];
  let model = deps.model;
  let denied = 0;
  let empties = 0;
  let continues = 0;
  // Tool outputs already sent as a note (context.prune), and the step that last overflowed the window.
  const pruned = new Set<string>();
  let overflowedAt: number | undefined;
  const toolChars = JSON.stringify(modelTools).length;

  // The session's log in memory, followed as it grows (one read of the whole log a turn).
  const log = new EventTail((seq) => store.eventsSince(session.id, seq));
  const checkJournal = checkingJournal();
  const assertNoDrift = (when: string) => {
    const drift = driftFromJournal(log.events(), store.events(session.id));
    if (drift) throw new Error(`${when}: the log in memory drifted from the journal: ${drift}`);
  };
  // Where the agent works, asked of git again only when something may have changed it.
  const where = watchEnvironment(deps.context.cwd);
  // Where the agent works, when it changed since the session was last told: before the message it frames.
  const environment = await environmentNotice(log.events(), where);
  store.atomically(() => {
    if (environment) store.append(session.id, EV.notice, environment);
    store.append(session.id, EV.user, message);
    record({ ...offered.decision, subject: { step: 1 } });
  });
  for (let step = 1; ; step++) {
    const limit = decideLimit({ step, maxSteps: deps.maxSteps, source: maxStepsSource });
    if (limit) {
      record({ seat: "turn.limit", ...limit, subject: { step } });
      return end({
        status: "limit",
        steps: step - 1,
        denied,
        message: `stopped: the turn reached its limit of ${deps.maxSteps} steps (max_steps)`,
      });
    }
    for (const job of deps.toolContext.jobs.takeFinished()) {
      where.mayHaveChanged();
      const ended =
        job.exitCode === null || job.exitCode === undefined
          ? `was stopped (${(job as ShellJob).signal ?? "killed"})`
          : `finished with exit code ${job.exitCode}`;
      notice(`Background job ${job.id} (\`${job.command}\`) ${ended}. Output tail:\n${job.output.slice(-4000)}`);
    }
    // What the person typed meanwhile to steer this turn goes in before the next request.
    if (step > 1) for (const text of deps.steering?.() ?? []) store.append(session.id, EV.user, { text });
    // The session's events: what was appended since the last step, read onto those in memory.
    let events = log.events();
    if (step > 1) {
      const environment = await environmentNotice(events, where);
      if (environment) {
        store.append(session.id, EV.notice, environment);
        events = log.events();
      }
    }
    const window = { store, sessionId: session.id, config, record, signal, model, step };
    const sized = await compactIfNeeded({ ...window, events, fixedChars: system.length + toolChars });
    if (sized.error) return end({ status: "failed", steps: step - 1, denied, message: sized.error });
    if (sized.compacted) events = log.events();
    const budget = budgetNote(step, deps.maxSteps);
    const projected = conversationView(window, step, pruned, events);
    if (checkJournal) assertNoDrift(`step ${step}, before the request`);
    if (budget) projected.push({ role: "user", content: `[bosun] ${budget}` });
    const { messages } = fitImages(projected, { accepts: model.info.images === true });

    const result = await requestModel({
      model,
      config,
      system,
      messages,
      // A model configured without tool support gets none (seat context.tools); its output limit bounds each reply.
      ...(offered.offered.length > 0 ? { tools: modelTools } : {}),
      ...(model.info.output ? { maxOutputTokens: model.info.output } : {}),
      signal,
      step,
      record,
      onEvent: (event) => {
        if (event.type === "text") deps.emit({ type: "text", text: event.text });
      },
      onWait: (waiting) => deps.emit({ type: "model_wait", waiting }),
      onUsage: (used, usage) => {
        const cost = recordUsage(store, session.id, used, usage);
        deps.emit({ type: "usage", step, model: used.ref, usage, ...(cost !== undefined ? { cost } : {}) });
      },
    });
    // After a fallback the turn stays on the model that answered (model.fallback was recorded).
    model = result.model;
    // The request was handed the messages: it must not have changed the events they came from.
    if (checkJournal) assertNoDrift(`step ${step}, after the request`);
    const finish = result.status === "complete" ? result.finishReason : "error";
    const assistant: AssistantMessage = {
      text: result.text,
      toolCalls: result.toolCalls,
      finish,
      model: result.model.ref,
      step,
      status: result.status,
    };
    // Too long for the model, before any output: compact once and try the step again (a second time is an error).
    if (result.status === "failed" && result.error.class === "context_overflow") {
      const retry = await recoverOverflow(window, overflowedAt === step);
      if (retry.again) {
        overflowedAt = step;
        step--;
        continue;
      }
      return end({ status: "failed", steps: step, denied, message: retry.message, errorClass: "context_overflow" });
    }
    store.append(session.id, EV.assistant, assistant);
    lastText = result.text;
    if (result.status === "aborted") return end({ status: "cancelled", steps: step, denied });
    if (result.status === "failed" || result.status === "interrupted") {
      const what =
        result.status === "interrupted" ? "the response broke off after it started" : "the model request failed";
      return end({
        status: "failed",
        steps: step,
        denied,
        message: `${what}: ${result.error.class}: ${result.error.message}`,
        errorClass: result.error.class,
      });
    }

    if (result.toolCalls.length === 0) {
      const length = decideLength({ finishReason: result.finishReason, continuedSoFar: continues });
      if (length) {
        record({ seat: "turn.continue_after_length", ...length, subject: { step } });
        if (length.answer === "fail")
          return end({
            status: "failed",
            steps: step,
            denied,
            message: "the reply was still cut off at the output limit after 2 continuations",
          });
        continues++;
        notice("Your reply was cut off at the output limit. Continue exactly where it stopped.");
        continue;
      }
      const done = decideDone({ toolCalls: 0, text: result.text, emptySoFar: empties });
      record({ seat: "turn.done", ...done, subject: { step } });
      if (done.answer === "retry-empty") {
        empties++;
        notice("Your last reply was empty. Continue the task, or reply with a summary if it is done.");
        continue;
      }
      if (done.answer === "fail-empty")
        return end({ status: "failed", steps: step, denied, message: "the model replied with nothing, three times" });
      return end({ status: "done", steps: step, denied });
    }

    const outcome = await runCalls(result.toolCalls, step, deps, record, recent, repeatLimit, where);
    denied += outcome.denied;
    if (outcome.stop) return end({ status: outcome.stop.status, steps: step, denied, message: outcome.stop.message });
  }
}

/** Prepares, authorizes and runs one response's tool calls; results are recorded in call order. */
async function runCalls(
  calls: ModelToolCall[],
  step: number,
  deps: TurnDeps,
  record: (d: Decision) => void,
  recent: string[],
  repeatLimit: number,
  where: EnvironmentWatch,
): Promise<{ denied: number; stop?: { status: TurnStatus; message: string } }> {
  const { store, session, signal } = deps;
  let denied = 0;
  let stop: { status: TurnStatus; message: string } | undefined;
  /** Set when a post_tool hook said `continue: false`: the turn ends after the call it followed. */
  let stoppedAfter: string | undefined;
  const finish = (call: ModelToolCall, result: Omit<CallFinished, "id" | "name">, detail?: string) => {
    store.append(session.id, EV.callFinished, { id: call.id, name: call.name, ...result });
    // A call that failed shows why on expansion (the end of its output), when its tool gave no detail.
    const shown = detail ?? (result.isError ? lastLines(result.output, DETAIL_LINES) : undefined);
    deps.emit({
      type: "tool_result",
      id: call.id,
      name: call.name,
      summary: result.summary,
      isError: result.isError,
      ...(shown ? { detail: shown } : {}),
    });
  };
  const runnable: Array<{
    call: ModelToolCall;
    tool: Tool;
    input: Record<string, unknown>;
    description: CallDescription;
    confine?: Confinement;
    approved?: string[];
  }> = [];

  for (const raw of calls) {
    deps.emit({ type: "tool_call", id: raw.id, name: raw.name, input: raw.input });
    // Judged on the call as written, so a model stuck on a broken call is stopped too.
    recent.push(callSignature(raw.name, raw.input));
    const repeat = stop ? undefined : decideRepeat({ recent, limit: repeatLimit });
    if (repeat || stop) {
      if (repeat) {
        record({ seat: "call.repeat", ...repeat, subject: { step, call: raw.id } });
        stop = {
          status: "repeat",
          message: `stopped: ${raw.name} was called with the same arguments ${repeatLimit} times in a row`,
        };
      }
      const repeated = stop?.status === "repeat";
      finish(raw, {
        output: `Not run: the turn was stopped ${repeated ? "because a call repeats" : `(${stop?.message})`}.`,
        isError: true,
        summary: `${raw.name}: not run (${repeated ? "repeated call" : "turn stopped"})`,
      });
      continue;
    }
    const prepared = prepareCall(raw, deps.tools, record, step);
    if (!prepared.ok) {
      finish(raw, {
        output: prepared.error,
        isError: true,
        summary: `${raw.name}: refused (${prepared.error.split("\n")[0]})`,
      });
      continue;
    }
    const { call, tool, input } = prepared;
    const unready = tool.unready ? () => tool.unready?.(input, deps.toolContext) : undefined;
    const verdict = await gate({ id: call.id, tool, input, ...(unready ? { unready } : {}) }, step, deps.gate);
    if (!verdict.run) {
      if (verdict.unapproved) denied++;
      finish(call, { output: verdict.output, isError: true, summary: verdict.summary });
      if (verdict.stopTurn)
        stop = verdict.stopMessage
          ? { status: "limit", message: verdict.stopMessage }
          : { status: "cancelled", message: "stopped: the person left the approval prompt" };
      continue;
    }
    runnable.push({
      call,
      tool,
      input,
      description: verdict.description,
      ...(verdict.confine ? { confine: verdict.confine } : {}),
      ...(verdict.approved ? { approved: verdict.approved } : {}),
    });
  }

  // The person left an approval prompt (or a hook stopped the turn): what was approved before does not run either.
  if (stop && stop.status !== "repeat") {
    for (const { call, tool } of runnable) {
      finish(call, {
        output: `Not run: ${stop.message}.`,
        isError: true,
        summary: `${tool.name}: not run (turn stopped)`,
      });
    }
    return { denied, stop };
  }

  // Calls that only read run together; a call that may change anything runs alone, after all
  // before it and before all after it, in the model's order. So no sibling call can change what
  // a call was judged on (one call makes a link, the next writes through it) or race its edit.
  for (const batch of batches(runnable, (r) => mayChange(r.description))) {
    await mapLimit(batch, deps.config.config.parallel_calls, ({ call, tool, input, description, confine, approved }) =>
      execute(call, tool, input, description, confine, approved),
    );
  }
  if (signal.aborted) return { denied, stop: { status: "cancelled", message: "cancelled" } };
  if (!stop && stoppedAfter) stop = { status: "limit", message: stoppedAfter };
  return { denied, ...(stop ? { stop } : {}) };

  async function execute(
    call: ModelToolCall,
    tool: Tool,
    input: Record<string, unknown>,
    description: CallDescription,
    judgedConfine: Confinement | undefined,
    approved: string[] | undefined,
  ): Promise<void> {
    if (signal.aborted) {
      store.append(session.id, EV.callCancelled, { id: call.id, name: tool.name });
      deps.emit({
        type: "tool_result",
        id: call.id,
        name: tool.name,
        summary: `${tool.name}: cancelled before it started`,
        isError: true,
      });
      return;
    }
    // A post_tool hook of an earlier call stopped the turn: nothing after it runs.
    if (stoppedAfter) {
      finish(call, {
        output: `Not run: ${stoppedAfter}.`,
        isError: true,
        summary: `${tool.name}: not run (turn stopped)`,
      });
      return;
    }
    // Judged on what it would do a moment ago; the files may have changed since (an earlier call ran).
    const still = await recheck({ id: call.id, tool, input }, description, step, deps.gate);
    if (!still.run) {
      if (still.unapproved) denied++;
      finish(call, { output: still.output, isError: true, summary: still.summary });
      if (still.stopMessage) stoppedAfter ??= still.stopMessage;
      return;
    }
    const judged = still.description;
    // Judged again (what it names changed): the new verdict says whether it runs confined.
    const again = still.description !== description;
    const confine = again ? still.confine : judgedConfine;
    const shown = (again ? still.approved : approved) ?? [];
    // Write-ahead: the call is on record before it runs, so a crash leaves a trace, not a re-run.
    // A call that may change anything waits for the disk too (a power cut cannot lose the trace);
    // one that only reads does not need to: losing its record loses nothing it did.
    const changes = mayChange(judged);
    store.append(session.id, EV.callStarted, { id: call.id, name: tool.name, input, step }, { durable: changes });
    // An edit or a command not proven read-only may change the tree: the next step asks git again.
    if (changes) where.mayHaveChanged();
    let result: Awaited<ReturnType<Tool["execute"]>>;
    try {
      result = await tool.execute(input, {
        ...deps.toolContext,
        callId: call.id,
        signal,
        judged,
        ...(confine ? { confine } : {}),
        mayRead: (path) => mayReadFound(deps.gate, path, shown),
        protectedFiles: async () => (await unreadableFiles(deps.gate)).files,
      });
    } catch (error) {
      result = {
        output: `The ${tool.name} tool failed: ${(error as Error).message}`,
        isError: true,
        summary: `${tool.name}: crashed`,
      };
    }
    // A call the abort actually stopped is cancelled; one that finished anyway keeps its result.
    if (signal.aborted && result.metadata?.cancelled === true) {
      store.append(session.id, EV.callCancelled, { id: call.id, name: tool.name });
      deps.emit({
        type: "tool_result",
        id: call.id,
        name: tool.name,
        summary: `${tool.name}: cancelled`,
        isError: true,
      });
      return;
    }
    const after = await afterCall({ id: call.id, tool, input }, step, result, judged, deps.gate);
    if (after.stopTurn) stoppedAfter ??= after.stopTurn;
    result = after;
    const bounded = boundOutput(result.output, {
      maxLines: deps.config.config.output.max_lines,
      maxBytes: deps.config.config.output.max_bytes,
      keep: result.keep ?? "head",
      overflowDir: deps.overflowDir,
      // Providers may reuse call ids across steps; the step keeps overflow files apart.
      callId: `step${step}-${call.id}`,
    });
    if (bounded.truncated) {
      record({
        seat: "exec.truncate",
        holder: "config",
        answer: {
          kept: result.keep ?? "head",
          lines: bounded.totalLines,
          bytes: bounded.totalBytes,
          file: bounded.overflowPath,
        },
        reasons: [
          {
            rule: "output over the bounds",
            detail: `${bounded.totalLines} lines, ${bounded.totalBytes} bytes > output.max_lines ${deps.config.config.output.max_lines} / output.max_bytes ${deps.config.config.output.max_bytes}`,
            decisive: true,
          },
        ],
        subject: { step, call: call.id },
      });
    }
    finish(
      call,
      {
        output: bounded.text,
        isError: result.isError ?? false,
        summary: result.summary,
        ...(result.metadata ? { metadata: result.metadata } : {}),
        ...(result.images ? { images: result.images } : {}),
      },
      result.detail,
    );
    // A read in a subfolder with its own AGENTS.md: that file joins the conversation, once.
    if (tool.name === "read" && !result.isError) {
      const read = description.requests.find((r) => r.action === "read")?.resource;
      const nested = read ? noteNestedInstructions(store, session.id, deps.context, read) : undefined;
      if (read && nested && nested.added.length + nested.skipped.length > 0) {
        record({ ...nestedDecision(nested.added, read, nested.skipped), subject: { step, call: call.id } });
      }
    }
  }
}

/** Lines of a failed call's output shown on expansion when its tool gave no detail of its own. */
const DETAIL_LINES = 40;
