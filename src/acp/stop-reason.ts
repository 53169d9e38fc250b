import type { StopReason } from "@agentclientprotocol/sdk";
import type { TurnOutcome } from "../loop/turn.js";

/** How a prompt turn ends for the editor: a stop reason, or an error (the turn failed). */
export type TurnEnd = { stopReason: StopReason } | { error: string };

/**
 * The ACP stop reason of a turn's outcome. `cancelled` when the editor cancelled, whatever the
 * turn came to (ACP requires it). `refusal` only for a prompt a hook kept out: ACP says the
 * prompt is then not part of the conversation, which is true of a blocked one and of nothing
 * else — a turn whose calls were denied keeps its prompt, so it ends as end_turn.
 */
export function turnEnd(outcome: TurnOutcome, cancelled: boolean): TurnEnd {
  if (cancelled) return { stopReason: "cancelled" };
  switch (outcome.status) {
    case "done":
    case "repeat":
      return { stopReason: "end_turn" };
    case "limit":
      return { stopReason: "max_turn_requests" };
    case "cancelled":
      return { stopReason: "cancelled" };
    case "blocked":
      return { stopReason: "refusal" };
    case "failed":
      return { error: outcome.message ?? "the turn failed" };
  }
}
