/**
 * Numbered schema migrations. Append only: a released migration is never edited, a change is
 * a new entry. `PRAGMA user_version` holds the number of the last one applied.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: sessions (a projection kept for fast listing) and the append-only event log.
  `
  CREATE TABLE sessions (
    id        TEXT PRIMARY KEY,
    title     TEXT NOT NULL DEFAULT '',
    directory TEXT NOT NULL,
    parent_id TEXT,
    created   INTEGER NOT NULL,
    updated   INTEGER NOT NULL
  );
  CREATE INDEX sessions_directory_updated ON sessions (directory, updated DESC);
  CREATE INDEX sessions_title ON sessions (title);
  CREATE TABLE events (
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    type       TEXT NOT NULL,
    data       TEXT NOT NULL,
    at         INTEGER NOT NULL,
    PRIMARY KEY (session_id, seq)
  ) WITHOUT ROWID;
  `,
  // 2: session leases — which run (process) holds a session; at most one at a time. See lease.ts.
  // `process` is what makes the pid unambiguous where it can be read (Linux: boot, pid namespace,
  // start time), as JSON; NULL elsewhere.
  `
  CREATE TABLE session_leases (
    session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    pid        INTEGER NOT NULL,
    host       TEXT NOT NULL,
    process    TEXT,
    token      TEXT NOT NULL,
    acquired   INTEGER NOT NULL,
    heartbeat  INTEGER NOT NULL
  );
  `,
  // 3: saved approvals — the person's "always" answers, per project (the workspace folder). Only
  // allows are saved; evaluate.ts never lets one lift a configured deny or ask.
  `
  CREATE TABLE saved_approvals (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    project    TEXT NOT NULL,
    action     TEXT NOT NULL,
    pattern    TEXT NOT NULL,
    tool       TEXT,
    session_id TEXT,
    created    INTEGER NOT NULL,
    UNIQUE (project, action, pattern)
  );
  `,
  // 4: trusted project settings — the person's "always" for what a repository's own bosun.json
  // would loosen (project-trust.ts), for exactly that content (its fingerprint).
  `
  CREATE TABLE trusted_projects (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    project     TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    items       TEXT NOT NULL,
    created     INTEGER NOT NULL,
    UNIQUE (project, fingerprint)
  );
  `,
];
