import type { RunEvent, TurnOutcome } from "../loop/turn.js";
import type { UsageSummary } from "../model/session-usage.js";

/** The version of the event stream (`--format json`, the server's SSE): `v` on every line; schema/run-stream.v1.json. */
export const STREAM_VERSION = 1;

/**
 * One run event as the stream carries it: its `type` and its fields, the same shape for
 * `bosun run --format json` and the server's event stream; undefined for what only a terminal
 * shows (the model's wait) or what the reader left out (decisions, with `decisions: false`).
 */
export function streamShape(
  event: RunEvent,
  options: { decisions?: boolean } = {},
): { type: string; fields: Record<string, unknown> } | undefined {
  switch (event.type) {
    // The wait is the interactive session's display; scripts get the decisions and the error.
    case "model_wait":
      return undefined;
    case "decision": {
      if (options.decisions === false) return undefined;
      // The stream's `seq` is the line's; the decision's place in the ledger is `ledgerSeq`.
      const { seq: ledgerSeq, ...decision } = event.decision;
      return { type: "decision", fields: { ...decision, ledgerSeq } };
    }
    case "usage":
      return {
        type: "usage",
        fields: { step: event.step, model: event.model, usage: event.usage, cost: event.cost ?? null },
      };
    default: {
      const { type, ...fields } = event;
      return { type, fields };
    }
  }
}

/**
 * How a turn ended, as the `done` event's status says it: one the model finished with a call
 * denied is "denied" (exit 3), never "done"; a limit is "limit".
 */
export function endedAs(outcome: TurnOutcome): string {
  return outcome.status === "done" && outcome.denied > 0 ? "denied" : outcome.status;
}

/** Exit codes: 0 done; 1 runtime failure; 2 usage or config (thrown); 3 stopped by a limit or a denied approval; 130 cancelled. */
export function exitCodeOf(outcome: TurnOutcome): number {
  switch (outcome.status) {
    case "done":
      return outcome.denied > 0 ? 3 : 0;
    case "limit":
    case "repeat":
    case "blocked":
      return 3;
    case "cancelled":
      return 130;
    default:
      return 1;
  }
}

/** The `done` event's fields for a turn that ended: the same for `--format json` and the server's stream. */
export function doneFields(
  outcome: TurnOutcome,
  end: { exitCode: number; durationMs: number; usage?: UsageSummary | undefined },
): Record<string, unknown> {
  const usage = end.usage;
  return {
    // The event keeps its name (scripts wait for it); its status says how the run ended.
    status: endedAs(outcome),
    exitCode: end.exitCode,
    steps: outcome.steps,
    denied: outcome.denied,
    result: outcome.lastText ?? "",
    durationMs: end.durationMs,
    usage: usage
      ? {
          input: usage.input,
          output: usage.output,
          cacheRead: usage.cacheRead,
          cacheWrite: usage.cacheWrite,
          requests: usage.requests,
        }
      : null,
    // A sum that leaves out a request of unknown price would understate: none rather than a wrong one.
    cost: usage && usage.costUnknown === 0 ? usage.cost : null,
    ...(outcome.status !== "done" && outcome.message ? { message: outcome.message } : {}),
  };
}
