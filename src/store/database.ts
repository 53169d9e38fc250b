import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { dataDir } from "../config/paths.js";
import { BosunError } from "../errors.js";
import { MIGRATIONS } from "./migrations.js";

export type Database = BetterSqlite3.Database;

/** `<data dir>/bosun.db`, where every session lives. */
export function databasePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), "bosun.db");
}

/**
 * Opens (creating if needed) the session database: WAL so readers never block the writer, every
 * commit synced to disk before it returns, a busy timeout so two bosun processes wait for each
 * other instead of failing, foreign keys on, and every pending migration applied inside one
 * write transaction.
 */
export function openDatabase(path: string): Database {
  mkdirSync(dirname(path), { recursive: true });
  // Loaded on demand: the native module costs start-up time that `--version` should not pay.
  const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
  const db = new Sqlite(path, { timeout: 15_000 });
  try {
    refuseNewer(db);
    db.pragma("journal_mode = WAL");
    // FULL, not NORMAL: in WAL mode NORMAL may lose the last commits on power loss, and the
    // ledger's write-ahead promise is that a recorded event (a tool call before it runs) survives.
    db.pragma("synchronous = FULL");
    db.pragma("foreign_keys = ON");
    migrate(db);
  } catch (error) {
    // A database this bosun cannot use is closed again: no handle (or lock) outlives the error.
    db.close();
    throw error;
  }
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
