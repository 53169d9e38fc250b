import type { StoredEvent } from "./session-store.js";

/**
 * A session's events kept in memory and brought up to date by reading only what was appended
 * since the last look: the journal stays the truth (every event comes from it, whoever wrote
 * it), but a step no longer re-reads and re-parses the whole log. Logs only grow (a compaction
 * appends a checkpoint, nothing is deleted), so the events so far plus the new ones are the log.
 */
export class EventTail<Event extends StoredEvent = StoredEvent> {
  private readonly seen: Event[] = [];

  /**
   * `since(seq)`: the session's events after `seq`, in order (SessionStore.eventsSince, or a typed
   * journal's, session/journal.ts: then the tail's events are typed too).
   */
  constructor(private readonly since: (seq: number) => Event[]) {}

  /** The whole log as it is now. The array is the tail's own: callers read it, never change it. */
  events(): readonly Event[] {
    const last = this.seen.at(-1)?.seq ?? 0;
    for (const event of this.since(last)) this.seen.push(event);
    return this.seen;
  }
}
