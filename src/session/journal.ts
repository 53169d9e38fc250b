import type { SessionStore, StoredEvent } from "../store/session-store.js";
import type { EventMap, EventType } from "./events.js";

interface EventOf<T extends EventType> extends StoredEvent {
  type: T;
  data: EventMap[T];
}

/**
 * A stored event of type `T`, its data of that type's shape. Of several types (`T` a union), it
 * is the union of each: `type` still tells which data it carries.
 */
export type TypedEvent<T extends EventType = EventType> = T extends EventType ? EventOf<T> : never;

/** Any event of the journal: a union discriminated by `type`, so a `switch` on it narrows `data`. */
export type JournalEvent = TypedEvent;

export interface AppendOptions {
  /** Durable before `append` returns, whatever group commit is on (a call's write-ahead record). */
  durable?: boolean;
}

/**
 * One session's typed journal: its append-only event log, where every event type and the shape
 * of its data are declared once (schemas.ts EVENT_SCHEMAS, typed as events.ts EventMap). An
 * append of data that is not its type's shape does not compile; a read by type gives that type's
 * data; `isEvent` narrows one event of a mixed list.
 *
 * SQLite is behind it today (`sqliteJournal`, over store/session-store.ts, which keeps any JSON
 * under any type and knows no event). A server database (PostgreSQL) implements the same
 * interface, so its callers do not change:
 *
 * - The async boundary is opening, not each call: the interface stays synchronous. A session is
 *   written by one process at a time (store/lease.ts), so a PostgreSQL journal loads the
 *   session's log once when it is opened (the one await, in the runtime that opens sessions),
 *   answers reads from memory, and gives each append the next seq itself. It sends appends in
 *   order behind the caller (a worker thread holding the connection); an append that asks to be
 *   `durable` (a call's write-ahead record) waits there until the server has committed it and
 *   everything before it (the main thread blocks on the worker with Atomics.wait, as a SQLite
 *   commit blocks on fsync today). A failed write makes the next append throw.
 * - `atomically(fn)` is one transaction: the appends `fn` makes are sent as one batch (one
 *   `BEGIN … COMMIT`), or none is when `fn` throws — never half of them.
 * - Ordering is by `seq`, per session, 1..n without gaps: readers never sort by time (a fork's
 *   copies keep the time they first happened). A server keys its events table by
 *   (session, seq), so a second writer that slips past the lease fails on the key instead of
 *   interleaving.
 *
 * Nothing a caller reads depends on which database is behind: `TypedEvent`s in `seq` order.
 * (What spans sessions — creating, forking, importing, listing — stays with the store for now.)
 */
export interface Journal {
  readonly sessionId: string;
  append<T extends EventType>(type: T, data: EventMap[T], options?: AppendOptions): TypedEvent<T>;
  /** The whole log, in order. */
  events(): JournalEvent[];
  /** The events of one type, in order. */
  events<T extends EventType>(type: T): TypedEvent<T>[];
  /** The events after `seq` of these types, in order: the end of a log without its start. */
  eventsAfter<T extends EventType>(seq: number, types: readonly T[]): TypedEvent<T>[];
  /** Every event after `seq`, in order: what was appended since a reader last looked. */
  eventsSince(seq: number): JournalEvent[];
  /** The seq of the `back`-th latest event of `type` (0: the latest), or undefined. */
  latestSeq(type: EventType, back?: number): number | undefined;
  /** Runs `fn` in one write transaction: everything it appends lands together or not at all. */
  atomically<R>(fn: () => R): R;
  /**
   * Until the returned function is called, an append need not wait for the disk (a turn's run of
   * appends: one sync per step, not per event); a `durable` append still does, and makes every
   * earlier one durable with it (SessionStore.groupCommits).
   */
  groupCommits(): () => void;
}

export interface JournalOptions {
  /**
   * Checks each append's data before it is stored (schemas.ts eventProblem): a problem refuses
   * the append. Off by default: the types already hold every writer to the shapes, and a check
   * per event would load zod at start-up and cost every step. Tests turn it on.
   */
  check?: (type: string, data: unknown) => string | undefined;
}

/** The session's journal in the SQLite store. */
export function sqliteJournal(store: SessionStore, sessionId: string, options: JournalOptions = {}): Journal {
  const { check } = options;
  function events(): JournalEvent[];
  function events<T extends EventType>(type: T): TypedEvent<T>[];
  function events(type?: EventType): JournalEvent[] {
    return journalEvents(store.events(sessionId, type));
  }
  return {
    sessionId,
    append<T extends EventType>(type: T, data: EventMap[T], appendOptions?: AppendOptions): TypedEvent<T> {
      const problem = check?.(type, data);
      if (problem !== undefined) throw new Error(`not appended to session ${sessionId}: ${type}: ${problem}`);
      const event: EventOf<T> = { ...store.append(sessionId, type, data, appendOptions), type, data };
      // The same event: TypeScript does not resolve TypedEvent<T> for a T not yet known.
      return event as TypedEvent<T>;
    },
    events,
    eventsAfter: <T extends EventType>(seq: number, types: readonly T[]) =>
      store.eventsAfter(sessionId, seq, types).filter((event): event is TypedEvent<T> => isEventOf(event, types)),
    eventsSince: (seq) => journalEvents(store.eventsSince(sessionId, seq)),
    latestSeq: (type, back) => store.latestSeq(sessionId, type, back),
    atomically: (fn) => store.atomically(fn),
    groupCommits: () => store.groupCommits(),
  };
}

/**
 * Whether a stored event is of this type, narrowing its data to that type's: how a reader of a
 * mixed list (a projection over the whole log) reads each event typed.
 *
 * This, with `isEventOf` and `journalEvent`, is where a stored event's data is taken for its
 * type's shape without being parsed again: the log holds what bosun's writers appended, held to
 * these types, and what an import checked against the schemas they are inferred from
 * (transfer.ts); test/cli/journal.test.ts checks every event a real run stores against them.
 */
export function isEvent<T extends EventType>(event: StoredEvent, type: T): event is TypedEvent<T> {
  return event.type === type;
}

/** Whether a stored event is of one of these types (see `isEvent`). */
export function isEventOf<T extends EventType>(event: StoredEvent, types: readonly T[]): event is TypedEvent<T> {
  return (types as readonly string[]).includes(event.type);
}

/** A stored event as the journal's union, for a `switch (event.type)` that narrows its data. */
export function journalEvent(event: StoredEvent): JournalEvent {
  return event as JournalEvent;
}

/** Stored events as the journal's union (see `journalEvent`): the same array, not a copy. */
export function journalEvents(events: StoredEvent[]): JournalEvent[];
export function journalEvents(events: readonly StoredEvent[]): readonly JournalEvent[];
export function journalEvents(events: readonly StoredEvent[]): readonly JournalEvent[] {
  return events as readonly JournalEvent[];
}
