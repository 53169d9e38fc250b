import type { CallDescription } from "../contracts/requests.js";
import type { Tool, ToolResult } from "../contracts/tools.js";
import { afterCall, type GateDeps } from "../permission/gate/gate.js";
import { mayChange } from "../permission/rules/call-requests.js";
import { boundCall, type OutputBounds } from "./bound.js";
import type { CallRecorder } from "./recorder.js";

/** What running an admitted call needs: whom it writes to, its hooks, its bounds. */
export interface RunDeps {
  recorder: CallRecorder;
  /** The gate's hooks run after the call (seat call.hook), recorded by the gate's recorder. */
  gate: GateDeps;
  bounds: OutputBounds;
  signal: AbortSignal;
  /** The step the call belongs to; 0 for a person's command between turns. */
  step: number;
  /** Told before a call that may change anything runs (the loop then asks git again). */
  onChange?: () => void;
}

/** A call the gate let run, with what it was judged to do. */
export interface Admitted {
  id: string;
  tool: Tool;
  input: Record<string, unknown>;
  judged: CallDescription;
}

export type Ran = { cancelled: true } | { cancelled: false; result: ToolResult; stopTurn?: string };

/**
 * The run step, the same for a model's call and a person's command: the write-ahead record,
 * the call itself (`execute`), the post-tool hooks, the bounds on its output, and its outcome on
 * record. Returns the result as recorded (bounded), or that it was cancelled.
 */
export async function runAdmitted(call: Admitted, execute: () => Promise<ToolResult>, deps: RunDeps): Promise<Ran> {
  const { tool } = call;
  const { recorder, step } = deps;
  // Write-ahead: the call is on record before it runs, so a crash leaves a trace, not a re-run.
  // A call that may change anything waits for the disk too (a power cut cannot lose the trace);
  // one that only reads does not need to: losing its record loses nothing it did.
  const changes = mayChange(call.judged);
  recorder.started({ id: call.id, name: tool.name, input: call.input, step }, changes);
  // An edit or a command not proven read-only may change the tree.
  if (changes) deps.onChange?.();
  let result: ToolResult;
  try {
    result = await execute();
  } catch (error) {
    result = {
      output: `The ${tool.name} tool failed: ${(error as Error).message}`,
      isError: true,
      summary: `${tool.name}: crashed`,
    };
  }
  // A call the abort actually stopped is cancelled; one that finished anyway keeps its result.
  if (deps.signal.aborted && result.metadata?.cancelled === true) {
    recorder.cancelled({ id: call.id, name: tool.name }, `${tool.name}: cancelled`);
    return { cancelled: true };
  }
  const { stopTurn, ...after } = await afterCall(
    { id: call.id, tool, input: call.input },
    step,
    result,
    call.judged,
    deps.gate,
  );
  const keep = after.keep ?? "head";
  const bounded = boundCall(after.output, keep, deps.bounds, `step${step}-${call.id}`);
  if (bounded.decision) recorder.decision({ ...bounded.decision, subject: { step, call: call.id } });
  const recorded: ToolResult = { ...after, output: bounded.text };
  recorder.finished(
    {
      id: call.id,
      name: tool.name,
      output: recorded.output,
      isError: recorded.isError ?? false,
      summary: recorded.summary,
      ...(recorded.metadata ? { metadata: recorded.metadata } : {}),
      ...(recorded.images ? { images: recorded.images } : {}),
    },
    recorded.detail,
  );
  return { cancelled: false, result: recorded, ...(stopTurn ? { stopTurn } : {}) };
}
