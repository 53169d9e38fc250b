import type { Confinement } from "../contracts/confinement.js";
import type { CallDescription } from "../contracts/requests.js";
import type { ToolContext } from "../contracts/tools.js";
import { type GateCall, type GateDeps, gate, recheck } from "../permission/gate/gate.js";
import type { Admitted } from "./run.js";

/** Why the calls of a response stopped the turn: a repeat, a limit (a hook), or the person left. */
export interface Stop {
  status: "repeat" | "limit" | "cancelled";
  message: string;
}

/** A call the gate let run, as judged: confined or not, and what a person approved it to read. */
export interface Judged extends Admitted {
  confine?: Confinement;
  /** The paths of its own requests a person (or --auto) approved: what it may show. */
  approved?: string[];
}

/** A call the gate refused: its result for the model, and whether the turn stops with it. */
export interface Refused {
  output: string;
  summary: string;
  /** Refused for want of approval (the person said no, or nobody could be asked). */
  unapproved: boolean;
  stop?: Stop;
}

/**
 * The gate step: every seat of the gate judges a prepared call before it runs. A call bound to
 * fail as things stand (its tool's `unready`) says so instead of asking anyone.
 */
export async function admitCall(
  call: Pick<GateCall, "id" | "tool" | "input" | "repository">,
  step: number,
  deps: GateDeps,
  context?: Pick<ToolContext, "cwd" | "files" | "access">,
): Promise<{ run: true; judged: Judged } | { run: false; refused: Refused }> {
  const { id, tool, input } = call;
  const unready = tool.unready && context ? () => tool.unready?.(input, context) : undefined;
  const access = context?.access;
  const verdict = await gate({ ...call, ...(unready ? { unready } : {}), ...(access ? { access } : {}) }, step, deps);
  if (!verdict.run) {
    const stop: Stop | undefined = verdict.stopTurn
      ? verdict.stopMessage
        ? { status: "limit", message: verdict.stopMessage }
        : { status: "cancelled", message: "stopped: the person left the approval prompt" }
      : undefined;
    return {
      run: false,
      refused: {
        output: verdict.output,
        summary: verdict.summary,
        unapproved: verdict.unapproved === true,
        ...(stop ? { stop } : {}),
      },
    };
  }
  return {
    run: true,
    judged: {
      id,
      tool,
      input,
      judged: verdict.description,
      ...(verdict.confine ? { confine: verdict.confine } : {}),
      ...(verdict.approved ? { approved: verdict.approved } : {}),
    },
  };
}

/**
 * Just before it runs: a call judged a moment ago may name other things now (an earlier call of
 * the response ran). Judged again when it does; the new verdict then says how it runs.
 */
export async function readmitCall(
  call: Judged,
  step: number,
  deps: GateDeps,
): Promise<{ run: true; judged: Judged } | { run: false; refused: Refused }> {
  const still = await recheck({ id: call.id, tool: call.tool, input: call.input }, call.judged, step, deps);
  if (!still.run) {
    return {
      run: false,
      refused: {
        output: still.output,
        summary: still.summary,
        unapproved: still.unapproved === true,
        // A hook that stopped the turn on the second judgement stops what follows, after this call.
        ...(still.stopMessage ? { stop: { status: "limit", message: still.stopMessage } } : {}),
      },
    };
  }
  if (still.description === call.judged) return { run: true, judged: call };
  const again: CallDescription = still.description;
  return {
    run: true,
    judged: {
      id: call.id,
      tool: call.tool,
      input: call.input,
      judged: again,
      ...(still.confine ? { confine: still.confine } : {}),
      ...(still.approved ? { approved: still.approved } : {}),
    },
  };
}
