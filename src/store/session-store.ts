import { monotonicFactory } from "ulid";

// Monotonic, so sessions created in the same millisecond still sort in creation order.
const ulid = monotonicFactory();

import { type Database, databasePath, type OpenOptions, openDatabase } from "./database.js";

export interface SessionInfo {
  id: string;
  title: string;
  directory: string;
  parentId: string | null;
  created: number;
  updated: number;
}

export interface StoredEvent {
  sessionId: string;
  seq: number;
  type: string;
  data: unknown;
  at: number;
}

interface SessionRow {
  id: string;
  title: string;
  directory: string;
  parent_id: string | null;
  created: number;
  updated: number;
}

interface EventRow {
  session_id: string;
  seq: number;
  type: string;
  data: string;
  at: number;
}

export interface NewSession {
  title?: string;
  directory: string;
  parentId?: string | null;
  /** Extra facts for the `session.created` event (e.g. what it was forked from). */
  details?: Record<string, unknown>;
}

/**
 * Sessions as append-only event logs. The `sessions` row is a projection kept in the same
 * transaction as the events that change it; the events are the truth.
 */
export class SessionStore {
  private constructor(
    readonly db: Database,
    private readonly now: () => number,
  ) {}

  static open(path: string = databasePath(), now: () => number = Date.now, options: OpenOptions = {}): SessionStore {
    return new SessionStore(openDatabase(path, options), now);
  }

  close(): void {
    this.db.close();
  }

  /**
   * Group commit, for a run of appends that has its own points of durability (a turn: before a
   * call runs, at its end). Until the returned function is called, a commit no longer waits for
   * the disk (SQLite's synchronous=NORMAL in WAL mode: it survives bosun crashing or being killed,
   * in order, and the database never corrupts; only a power cut can lose commits since the last
   * durable one); `append(..., { durable: true })` commits as before, synced, and so makes every
   * earlier commit durable too (one WAL file, one fsync). A step then costs one sync, not one per event.
   */
  groupCommits(): () => void {
    this.grouped++;
    this.db.pragma("synchronous = NORMAL");
    let restored = false;
    return () => {
      if (restored) return;
      restored = true;
      this.grouped--;
      if (this.grouped === 0) this.db.pragma("synchronous = FULL");
    };
  }

  private grouped = 0;

  /** Runs `fn` in one write transaction: everything it appends lands together or not at all. */
  atomically<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** Creates a session and its `session.created` event atomically. */
  create(input: NewSession): SessionInfo {
    const at = this.now();
    const session: SessionInfo = {
      id: ulid(at),
      title: input.title ?? "",
      directory: input.directory,
      parentId: input.parentId ?? null,
      created: at,
      updated: at,
    };
    this.db
      .transaction(() => {
        this.db
          .prepare("INSERT INTO sessions (id, title, directory, parent_id, created, updated) VALUES (?, ?, ?, ?, ?, ?)")
          .run(session.id, session.title, session.directory, session.parentId, at, at);
        this.insertEvent(
          session.id,
          1,
          "session.created",
          {
            title: session.title,
            directory: session.directory,
            parent: session.parentId,
            ...input.details,
          },
          at,
        );
      })
      .immediate();
    return session;
  }

  /**
   * Appends one event with the next sequence number. The write lock is taken before the
   * sequence is read, so concurrent writers (threads or processes) never collide or skip.
   * The time is read under the lock too, so a later seq never carries an earlier time from a
   * writer that waited; and `updated` only moves forward, whatever the clock does.
   */
  append(sessionId: string, type: string, data: unknown, options: { durable?: boolean } = {}): StoredEvent {
    // Synced now, whatever groupCommits said (a setting of the connection: not changed inside a transaction).
    const sync = options.durable === true && this.grouped > 0 && !this.db.inTransaction;
    if (!sync) return this.appendNow(sessionId, type, data);
    this.db.pragma("synchronous = FULL");
    try {
      return this.appendNow(sessionId, type, data);
    } finally {
      this.db.pragma("synchronous = NORMAL");
    }
  }

  private appendNow(sessionId: string, type: string, data: unknown): StoredEvent {
    return this.db
      .transaction(() => {
        const at = this.now();
        const next = this.db
          .prepare("SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM events WHERE session_id = ?")
          .get(sessionId) as { seq: number };
        const updated = this.db
          .prepare("UPDATE sessions SET updated = MAX(updated, ?) WHERE id = ?")
          .run(at, sessionId);
        if (updated.changes === 0) throw new Error(`no session ${sessionId}`);
        if (type === "session.title") {
          this.db.prepare("UPDATE sessions SET title = ? WHERE id = ?").run(titleOf(data), sessionId);
        }
        this.insertEvent(sessionId, next.seq, type, data, at);
        return { sessionId, seq: next.seq, type, data, at };
      })
      .immediate();
  }

  /**
   * Appends copies of events from another log (a fork), each keeping the time it first
   * happened: a copy says when the thing took place, not when it was copied.
   */
  appendCopies(sessionId: string, events: ReadonlyArray<Pick<StoredEvent, "type" | "data" | "at">>): void {
    this.db
      .transaction(() => {
        const next = this.db
          .prepare("SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM events WHERE session_id = ?")
          .get(sessionId) as { seq: number };
        events.forEach((event, i) => {
          this.insertEvent(sessionId, next.seq + i, event.type, event.data, event.at);
        });
      })
      .immediate();
  }

  setTitle(sessionId: string, title: string): void {
    this.append(sessionId, "session.title", { title });
  }

  get(id: string): SessionInfo | undefined {
    const row = this.db.prepare("SELECT * FROM sessions WHERE id = ?").get(id) as SessionRow | undefined;
    return row ? toInfo(row) : undefined;
  }

  /** Newest first; only those recorded with `directory` (or one of several) when given. */
  list(directory?: string | readonly string[]): SessionInfo[] {
    if (directory === undefined) {
      return (this.db.prepare("SELECT * FROM sessions ORDER BY updated DESC, id DESC").all() as SessionRow[]).map(
        toInfo,
      );
    }
    const directories = typeof directory === "string" ? [directory] : [...directory];
    if (directories.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT * FROM sessions WHERE directory IN (${directories.map(() => "?").join(", ")}) ORDER BY updated DESC, id DESC`,
      )
      .all(...directories);
    return (rows as SessionRow[]).map(toInfo);
  }

  /**
   * The sessions whose parent is `parentId` (its forks and its delegates), oldest first: the order
   * they were started in (ids are monotonic, so a tie in time keeps it too).
   */
  children(parentId: string): SessionInfo[] {
    const rows = this.db
      .prepare("SELECT * FROM sessions WHERE parent_id = ? ORDER BY created, id")
      .all(parentId) as SessionRow[];
    return rows.map(toInfo);
  }

  events(sessionId: string, type?: string): StoredEvent[] {
    const rows = type
      ? this.db.prepare("SELECT * FROM events WHERE session_id = ? AND type = ? ORDER BY seq").all(sessionId, type)
      : this.db.prepare("SELECT * FROM events WHERE session_id = ? ORDER BY seq").all(sessionId);
    return (rows as EventRow[]).map(toEvent);
  }

  /** The first event of `type` (a session's `session.created`): the log is read no further than it. */
  firstEvent(sessionId: string, type: string): StoredEvent | undefined {
    const row = this.db
      .prepare("SELECT * FROM events WHERE session_id = ? AND type = ? ORDER BY seq LIMIT 1")
      .get(sessionId, type) as EventRow | undefined;
    return row ? toEvent(row) : undefined;
  }

  /**
   * The seq of the `back`-th latest event of `type` (0: the latest), or undefined when there are
   * not that many. Walks the log backwards only as far as that event (the primary key's order).
   */
  latestSeq(sessionId: string, type: string, back = 0): number | undefined {
    const row = this.db
      .prepare("SELECT seq FROM events WHERE session_id = ? AND type = ? ORDER BY seq DESC LIMIT 1 OFFSET ?")
      .get(sessionId, type, back) as { seq: number } | undefined;
    return row?.seq;
  }

  /** The events after `seq`, of these types only, in order: the end of a log without its start. */
  eventsAfter(sessionId: string, seq: number, types: readonly string[]): StoredEvent[] {
    if (types.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT * FROM events WHERE session_id = ? AND seq > ? AND type IN (${types.map(() => "?").join(", ")}) ORDER BY seq`,
      )
      .all(sessionId, seq, ...types);
    return (rows as EventRow[]).map(toEvent);
  }

  /** Every event after `seq`, in order: what was appended since a reader last looked. */
  eventsSince(sessionId: string, seq: number): StoredEvent[] {
    const rows = this.db
      .prepare("SELECT * FROM events WHERE session_id = ? AND seq > ? ORDER BY seq")
      .all(sessionId, seq) as EventRow[];
    return rows.map(toEvent);
  }

  /** Deletes a session and its events. Returns false when there was none. */
  delete(id: string): boolean {
    return this.db.prepare("DELETE FROM sessions WHERE id = ?").run(id).changes > 0;
  }

  /**
   * Writes a whole session as given (import, fork). All or nothing: on any error the
   * database is left as it was.
   */
  insertWhole(session: SessionInfo, events: ReadonlyArray<Omit<StoredEvent, "sessionId">>): void {
    this.db
      .transaction(() => {
        this.db
          .prepare("INSERT INTO sessions (id, title, directory, parent_id, created, updated) VALUES (?, ?, ?, ?, ?, ?)")
          .run(session.id, session.title, session.directory, session.parentId, session.created, session.updated);
        for (const event of events) this.insertEvent(session.id, event.seq, event.type, event.data, event.at);
      })
      .immediate();
  }

  private insertEvent(sessionId: string, seq: number, type: string, data: unknown, at: number): void {
    this.db
      .prepare("INSERT INTO events (session_id, seq, type, data, at) VALUES (?, ?, ?, ?, ?)")
      .run(sessionId, seq, type, JSON.stringify(data ?? null), at);
  }
}

/** The title a `session.title` event sets, which the sessions row keeps (its data is any JSON here). */
function titleOf(data: unknown): string {
  if (typeof data === "object" && data !== null && "title" in data && typeof data.title === "string") return data.title;
  throw new Error("a session.title event carries its title, a string");
}

function toInfo(row: SessionRow): SessionInfo {
  return {
    id: row.id,
    title: row.title,
    directory: row.directory,
    parentId: row.parent_id,
    created: row.created,
    updated: row.updated,
  };
}

function toEvent(row: EventRow): StoredEvent {
  return { sessionId: row.session_id, seq: row.seq, type: row.type, data: JSON.parse(row.data), at: row.at };
}
