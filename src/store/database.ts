import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { dataDir } from "../config/paths.js";
import { BosunError } from "../errors.js";
import { classifyStoreFailure, StoreError, storeError } from "./failure.js";
import { MIGRATIONS } from "./migrations.js";
import { preparePrivateDatabase } from "./private-files.js";

export type Database = BetterSqlite3.Database;

/** `<data dir>/bosun.db`, where every session lives. */
export function databasePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), "bosun.db");
}

export interface OpenOptions {
  /**
   * Only read: nothing is created, migrated or written, so reading commands work on a read-only
   * home. A database that does not exist yet reads as an empty one.
   */
  readonly?: boolean;
}

const BUSY_TIMEOUT_MS = 15_000;

/**
 * Opens (creating if needed) the session database, readable by its owner only (0600 in a 0700
 * folder, -wal and -shm too; a reading open changes no mode): WAL so readers never block the writer, every
 * commit synced to disk before it returns, a busy timeout so two bosun processes wait for each
 * other instead of failing, foreign keys on, and every pending migration applied inside one
 * write transaction. A file, folder or disk bosun cannot use is a `StoreError` naming the file and
 * what to do (failure.ts).
 */
export function openDatabase(path: string, options: OpenOptions = {}): Database {
  try {
    refuseNotAFile(path);
    return options.readonly ? openForReading(path) : openForWriting(path);
  } catch (error) {
    throw storeError(error, path) ?? error;
  }
}

/**
 * A database path that is a folder, or a data folder that is a file, said as such: SQLite would
 * call the first a disk I/O error, and a reading command would take the second for no sessions yet.
 */
function refuseNotAFile(path: string): void {
  const stat = statIfThere(path);
  if (stat?.isDirectory()) {
    throw new StoreError(
      `${path} is a folder, not a database file; move it aside (mv ${path} ${path}.folder) and bosun starts a new database`,
      "cannot-open",
    );
  }
  if (stat) return;
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    const above = statIfThere(folder);
    if (above && !above.isDirectory()) {
      throw new StoreError(
        `${folder} is a file, so bosun cannot keep its data under it (${path}); remove or rename it, or point BOSUN_HOME at a folder`,
        "cannot-open",
      );
    }
    if (above || dirname(folder) === folder) return;
  }
}

/** A path's stat, or undefined when nothing is there — a file above it (ENOTDIR) counts as nothing here. */
function statIfThere(path: string): ReturnType<typeof statSync> {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

function sqlite(): typeof BetterSqlite3 {
  // Loaded on demand: the native module costs start-up time that `--version` should not pay.
  return createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
}

function openForWriting(path: string): Database {
  // Owner-only before SQLite opens it: its -wal and -shm then take the file's 0600 (private-files.ts).
  preparePrivateDatabase(path);
  const Sqlite = sqlite();
  const db = new Sqlite(path, { timeout: BUSY_TIMEOUT_MS });
  return prepared(db, () => {
    refuseNewer(db);
    db.pragma("journal_mode = WAL");
    // FULL, not NORMAL: in WAL mode NORMAL may lose the last commits on power loss, and the
    // ledger's write-ahead promise is that a recorded event (a tool call before it runs) survives.
    db.pragma("synchronous = FULL");
    db.pragma("foreign_keys = ON");
    migrate(db);
  });
}

function openForReading(path: string): Database {
  // Nothing recorded yet: an empty database in memory answers as the file would once created.
  if (!existsSync(path)) return prepared(new (sqlite())(":memory:"), (db) => migrate(db));
  const db = readDatabase(path);
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version === MIGRATIONS.length) return prepared(db, () => db.pragma("foreign_keys = ON"));
  if (version > MIGRATIONS.length) return prepared(db, () => refuseNewer(db));
  db.close();
  // An older schema is migrated as any command would; where it cannot be written, in a copy.
  try {
    return openForWriting(path);
  } catch (error) {
    const failure = classifyStoreFailure(error);
    if (failure === "read-only" || failure === "cannot-open") return copyForReading(path);
    throw error;
  }
}

/**
 * An existing database as it is, read-only: nothing created, migrated or written (`bosun doctor`
 * checks it so). Failures are SQLite's own; `openDatabase` explains them.
 */
export function readDatabase(path: string): Database {
  const db = new (sqlite())(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma("user_version", { simple: true });
    return db;
  } catch (error) {
    db.close();
    // A WAL database is read through its -shm file; in a folder that cannot be written and has
    // none, SQLite cannot open it at all — but then the file itself holds every commit.
    if (classifyStoreFailure(error) === "cannot-open") return copyForReading(path, { migrated: false });
    throw error;
  }
}

/**
 * The database read into memory, for a folder SQLite cannot open it in. Only when no -wal file is
 * there: commits still in one are not in the file, and only a writable folder lets SQLite read them.
 */
function copyForReading(path: string, how = { migrated: true }): Database {
  if (existsSync(`${path}-wal`)) {
    throw new StoreError(
      `cannot read ${path}: its last commits are still in ${path}-wal, which SQLite reads only where it may write ${dirname(path)}; make the folder writable once (any bosun command then folds them in)`,
      "read-only",
    );
  }
  const bytes = readFileSync(path);
  // Header bytes 18 and 19 say "WAL" (2); a copy in memory has no WAL: mark it rollback-journal (1).
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) bytes.fill(1, 18, 20);
  const Sqlite = sqlite();
  const db = new Sqlite(bytes);
  return prepared(db, () => {
    if (!how.migrated) return;
    refuseNewer(db);
    db.pragma("foreign_keys = ON");
    migrate(db);
  });
}

/** Runs `setUp` on a fresh handle; a database this bosun cannot use is closed again (no handle or lock outlives the error). */
function prepared(db: Database, setUp: (db: Database) => void): Database {
  try {
    setUp(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return withStatementCache(db);
}

/**
 * Each SQL text compiled once per connection: compiling is most of what a small query costs,
 * and a step asks the same few (the next sequence number, an append, the events since the last
 * look) again and again. A statement is shared by everyone asking the same text, so nobody may
 * change its modes (pluck, raw, expand — bosun uses none) or iterate it (a second use would find
 * it busy); every use runs to completion before returning.
 */
export function withStatementCache(db: Database): Database {
  const compile = db.prepare.bind(db);
  const compiled = new Map<string, ReturnType<Database["prepare"]>>();
  db.prepare = ((sql: string) => {
    let statement = compiled.get(sql);
    if (!statement) {
      statement = compile(sql);
      compiled.set(sql, statement);
    }
    return statement;
  }) as Database["prepare"];
  return db;
}

/** A database written by a newer bosun is refused before anything (even the journal mode) is changed. */
function refuseNewer(db: Database): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new BosunError(
      `the session database is at schema version ${version}, newer than this bosun knows (${MIGRATIONS.length}); upgrade bosun`,
      1,
    );
  }
}

function migrate(db: Database): void {
  const current = () => db.pragma("user_version", { simple: true }) as number;
  if (current() === MIGRATIONS.length) return;
  // IMMEDIATE takes the write lock first, so two processes starting together migrate once:
  // the second re-reads the version under the lock and finds nothing left to do.
  db.transaction(() => {
    refuseNewer(db);
    for (let version = current(); version < MIGRATIONS.length; version++) {
      db.exec(MIGRATIONS[version] as string);
      db.pragma(`user_version = ${version + 1}`);
    }
  }).immediate();
}
