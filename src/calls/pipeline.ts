import type { ModelToolCall } from "../contracts/tool-calls.js";
import type { Tool, ToolContext } from "../contracts/tools.js";
import { unreadableFiles } from "../permission/gate/confine.js";
import { type GateDeps, mayReadFound } from "../permission/gate/gate.js";
import { webReach } from "../permission/gate/web-reach.js";
import type { OutputBounds } from "./bound.js";
import { admitCall, type Judged, readmitCall, type Stop } from "./gate-call.js";
import { prepareCall } from "./prepare.js";
import type { CallRecorder } from "./recorder.js";
import { callSignature, decideRepeat } from "./repeat.js";
import { runAdmitted } from "./run.js";
import { schedule } from "./schedule.js";

/** What the pipeline runs a turn's calls with. */
export interface PipelineDeps {
  /** Every tool a call may name. */
  tools: readonly Tool[];
  /**
   * The gate as things stand, asked once per call: the person's "always" for one call is in force
   * for the next one judged (the runtime hands out a fresh frozen gate each time).
   */
  gate: () => Readonly<GateDeps>;
  recorder: CallRecorder;
  bounds: OutputBounds;
  signal: AbortSignal;
  /** What every call runs with; its id, signal and judgement are the pipeline's to add. */
  toolContext: Omit<ToolContext, "callId" | "signal">;
  /** Most calls that only read running at once (config parallel_calls). */
  parallel: number;
  /** The same call this many times in a row stops the turn (config repeat_limit). */
  repeatLimit: number;
  /** Told before a call that may change anything runs. */
  onChange?: () => void;
  /** Told when a call showed the model a file whole (its tool's `opened`), once it is on record. */
  onOpened?: (path: string, subject: { step: number; call: string }) => void;
}

export interface CallsOutcome {
  /** Calls refused because nobody could approve them. */
  denied: number;
  stop?: Stop;
}

/** The call pipeline of one turn, as the loop sees it. */
export interface CallPipeline {
  /** One response's calls: prepared, judged, scheduled and run; each outcome recorded, in call order. */
  run(calls: readonly ModelToolCall[], step: number): Promise<CallsOutcome>;
}

/** The pipeline of one turn: prepare → gate → schedule → run. It remembers the turn's calls (seat call.repeat). */
export function callPipeline(deps: PipelineDeps): CallPipeline {
  const recent: string[] = [];
  return { run: (calls, step) => runResponse(calls, step, deps, recent) };
}

async function runResponse(
  calls: readonly ModelToolCall[],
  step: number,
  deps: PipelineDeps,
  recent: string[],
): Promise<CallsOutcome> {
  const admitted = await admitAll(calls, step, deps, recent);
  let { stop } = admitted;
  // The person left an approval prompt (or a hook stopped the turn): what was approved before does not run either.
  if (stop && stop.status !== "repeat") {
    const message = stop.message;
    for (const call of admitted.runnable) {
      refuse(
        deps.recorder,
        { id: call.id, name: call.tool.name },
        `Not run: ${message}.`,
        `${call.tool.name}: not run (turn stopped)`,
      );
    }
    return { denied: admitted.denied, stop };
  }
  const state: RunState = { denied: admitted.denied };
  await schedule(admitted.runnable, deps.parallel, (call) => runOne(call, step, deps, state));
  if (deps.signal.aborted) return { denied: state.denied, stop: { status: "cancelled", message: "cancelled" } };
  if (!stop && state.stoppedAfter) stop = { status: "limit", message: state.stoppedAfter };
  return { denied: state.denied, ...(stop ? { stop } : {}) };
}

/** Prepare and gate, call by call in the model's order: the calls that may run, and any stop. */
async function admitAll(
  calls: readonly ModelToolCall[],
  step: number,
  deps: PipelineDeps,
  recent: string[],
): Promise<{ runnable: Judged[]; denied: number; stop?: Stop }> {
  const { recorder } = deps;
  const runnable: Judged[] = [];
  let denied = 0;
  let stop: Stop | undefined;
  for (const raw of calls) {
    recorder.asked({ id: raw.id, name: raw.name, input: raw.input });
    // Judged on the call as written, so a model stuck on a broken call is stopped too.
    recent.push(callSignature(raw.name, raw.input));
    const repeat = stop ? undefined : decideRepeat({ recent, limit: deps.repeatLimit });
    if (repeat || stop) {
      if (repeat) {
        recorder.decision({ seat: "call.repeat", ...repeat, subject: { step, call: raw.id } });
        stop = {
          status: "repeat",
          message: `stopped: ${raw.name} was called with the same arguments ${deps.repeatLimit} times in a row`,
        };
      }
      const repeated = stop?.status === "repeat";
      const why = repeated ? "because a call repeats" : `(${stop?.message})`;
      refuse(
        recorder,
        raw,
        `Not run: the turn was stopped ${why}.`,
        `${raw.name}: not run (${repeated ? "repeated call" : "turn stopped"})`,
      );
      continue;
    }
    const prepared = prepareCall(raw, deps.tools, recorder.decision, step);
    if (!prepared.ok) {
      refuse(recorder, raw, prepared.error, `${raw.name}: refused (${prepared.error.split("\n")[0]})`);
      continue;
    }
    const { call, tool, input } = prepared;
    const verdict = await admitCall({ id: call.id, tool, input }, step, deps.gate(), deps.toolContext);
    if (!verdict.run) {
      if (verdict.refused.unapproved) denied++;
      refuse(recorder, call, verdict.refused.output, verdict.refused.summary);
      if (verdict.refused.stop) stop = verdict.refused.stop;
      continue;
    }
    runnable.push(verdict.judged);
  }
  return { runnable, denied, ...(stop ? { stop } : {}) };
}

interface RunState {
  denied: number;
  /** Set when a post_tool hook said `continue: false`: the turn ends after the call it followed. */
  stoppedAfter?: string;
}

async function runOne(call: Judged, step: number, deps: PipelineDeps, state: RunState): Promise<void> {
  const { recorder, signal } = deps;
  // One gate for the whole of this call: its recheck, its reads and its post-hooks judge alike.
  const gate = deps.gate();
  const name = call.tool.name;
  if (signal.aborted) {
    recorder.cancelled({ id: call.id, name }, `${name}: cancelled before it started`);
    return;
  }
  // A post_tool hook of an earlier call stopped the turn: nothing after it runs.
  if (state.stoppedAfter) {
    refuse(recorder, { id: call.id, name }, `Not run: ${state.stoppedAfter}.`, `${name}: not run (turn stopped)`);
    return;
  }
  // Judged on what it would do a moment ago; the files may have changed since (an earlier call ran).
  const still = await readmitCall(call, step, gate);
  if (!still.run) {
    if (still.refused.unapproved) state.denied++;
    refuse(recorder, { id: call.id, name }, still.refused.output, still.refused.summary);
    if (still.refused.stop) state.stoppedAfter ??= still.refused.stop.message;
    return;
  }
  const judged = still.judged;
  const execute = () =>
    judged.tool.execute(judged.input, {
      ...deps.toolContext,
      callId: judged.id,
      signal,
      judged: judged.judged,
      ...(judged.confine ? { confine: judged.confine } : {}),
      mayRead: (path) => mayReadFound(gate, path, judged.approved ?? []),
      protectedFiles: async () => (await unreadableFiles(gate)).files,
      progress: (update) => recorder.progress?.({ id: judged.id, name }, update),
      // What a web call meets while it runs is judged by the same rules, and its answers go on record with it.
      web: webReach(gate, (decision) =>
        recorder.decision({ ...decision, subject: { step, call: judged.id, ...decision.subject } }),
      ),
    });
  const ran = await runAdmitted(judged, execute, {
    recorder,
    gate,
    bounds: deps.bounds,
    signal,
    step,
    ...(deps.onChange ? { onChange: deps.onChange } : {}),
  });
  if (ran.cancelled) return;
  if (ran.stopTurn) state.stoppedAfter ??= ran.stopTurn;
  // A file the call showed the model whole (a read): whoever follows files hears of it, after its result.
  const opened = ran.result.isError ? undefined : judged.tool.opened?.(judged.judged);
  if (opened) deps.onOpened?.(opened, { step, call: judged.id });
}

/** A call that does not run: its result says why. */
function refuse(recorder: CallRecorder, call: { id: string; name: string }, output: string, summary: string): void {
  recorder.finished({ id: call.id, name: call.name, output, isError: true, summary });
}
