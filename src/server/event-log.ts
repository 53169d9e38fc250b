/** One event of a session's stream, numbered for `Last-Event-ID`. */
export interface LoggedEvent {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

/** Events a session keeps for clients that reconnect; older ones are told as a gap. */
export const KEPT_EVENTS = 5_000;

/**
 * A session's events as the server streams them: numbered from 1, the last KEPT_EVENTS kept so a
 * client that reconnects with `Last-Event-ID` gets what it missed, each new one pushed to every
 * subscriber. Memory is bounded whatever the session's length.
 */
export class EventLog {
  private kept: LoggedEvent[] = [];
  private next = 1;
  private readonly subscribers = new Set<(event: LoggedEvent) => void>();
  /** Called when the last subscriber leaves (a client disconnected). */
  onEmpty: (() => void) | undefined;

  push(type: string, data: Record<string, unknown>): LoggedEvent {
    const event = { id: this.next++, type, data };
    this.kept.push(event);
    if (this.kept.length > KEPT_EVENTS) this.kept = this.kept.slice(-KEPT_EVENTS);
    for (const subscriber of this.subscribers) subscriber(event);
    return event;
  }

  /** The events after `id` still kept, and whether some after it were dropped (a gap). */
  since(id: number): { events: LoggedEvent[]; gap: boolean } {
    const first = this.kept[0]?.id ?? this.next;
    return { events: this.kept.filter((e) => e.id > id), gap: id + 1 < first };
  }

  subscribe(subscriber: (event: LoggedEvent) => void): () => void {
    this.subscribers.add(subscriber);
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) this.onEmpty?.();
    };
  }

  get watchers(): number {
    return this.subscribers.size;
  }

  /** The oldest event still kept (the next one's id when none is). */
  get firstKept(): number {
    return this.kept[0]?.id ?? this.next;
  }

  get lastId(): number {
    return this.next - 1;
  }
}
