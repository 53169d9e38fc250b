import type { RunEvent } from "../loop/turn.js";

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
