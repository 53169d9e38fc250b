import { EV, type EventMap, type UserMessage } from "../session/events.js";
import { isEvent, type TypedEvent } from "../session/journal.js";
import { withoutReverted } from "../session/turns.js";
import type { StoredEvent } from "../store/session-store.js";

/** The event a compaction appends. History before it is never deleted; the projection skips it. */
export const CHECKPOINT_EVENT = "compaction.checkpoint";

/** A checkpoint's data (declared with its schema, session/schemas.ts). */
export type CompactionCheckpoint = EventMap[typeof CHECKPOINT_EVENT];

export type CompactionReason = CompactionCheckpoint["reason"];

/** What the model reads in place of the history a checkpoint summarises. */
export const SUMMARY_PREFIX =
  "[bosun] Summary of the conversation so far (compacted; the full history is in the session store):\n\n";

/** The session's latest well-formed checkpoint event, if any. */
export function latestCheckpoint(events: readonly StoredEvent[]): TypedEvent<typeof CHECKPOINT_EVENT> | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as StoredEvent;
    if (isEvent(event, CHECKPOINT_EVENT) && isCheckpoint(event.data)) return event;
  }
  return undefined;
}

/**
 * The part of the history the model still reads verbatim — every event from the latest
 * checkpoint's keptFrom on (all of them when there is none) — and the synthetic user message
 * that stands for everything before it. A turn undone (session/turns.ts) is not part of it: undo
 * refuses a turn a checkpoint summarised, so leaving its events out is all it takes.
 */
export function liveEvents(all: readonly StoredEvent[]): { summary?: StoredEvent; live: StoredEvent[] } {
  const events = withoutReverted(all);
  const checkpoint = latestCheckpoint(events);
  if (!checkpoint) return { live: events };
  return {
    summary: summaryEvent(checkpoint),
    live: events.filter((event) => event.seq >= checkpoint.data.keptFrom),
  };
}

/**
 * What the projection should see of a session's events: with a checkpoint, a user message
 * holding its summary, then the events from its keptFrom on (events after the checkpoint too);
 * the latest checkpoint wins. Without one, the events as they are. Nothing is removed from the
 * store: this is a view.
 */
export function applyCheckpoint(events: readonly StoredEvent[]): StoredEvent[] {
  const { summary, live } = liveEvents(events);
  return summary ? [summary, ...live] : live;
}

/** The synthetic user message of a checkpoint; it carries the checkpoint's own seq and time. */
export function summaryEvent(checkpoint: TypedEvent<typeof CHECKPOINT_EVENT>): StoredEvent {
  const data: UserMessage = { text: `${SUMMARY_PREFIX}${checkpoint.data.summary}` };
  return { sessionId: checkpoint.sessionId, seq: checkpoint.seq, type: EV.user, data, at: checkpoint.at };
}

/** Whether a checkpoint's data is whole: one that is not is passed over, not trusted with the history. */
function isCheckpoint(data: unknown): data is CompactionCheckpoint {
  return (
    typeof data === "object" &&
    data !== null &&
    "summary" in data &&
    typeof data.summary === "string" &&
    "keptFrom" in data &&
    typeof data.keptFrom === "number" &&
    Number.isFinite(data.keptFrom)
  );
}
