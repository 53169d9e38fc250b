import { existsSync } from "node:fs";
import { readDatabase } from "./database.js";
import { classifyStoreFailure, type StoreFailure, storeError } from "./failure.js";
import { MIGRATIONS } from "./migrations.js";

/** What `bosun doctor` says about the session database: read only, never created or migrated. */
export type DatabaseCheck =
  | { state: "missing" }
  | { state: "ok"; version: number; latest: number; sessions: number }
  | { state: "problem"; problem: string; failure?: StoreFailure; version?: number };

/** Opens the database read-only and runs SQLite's full `PRAGMA integrity_check` on it. */
export function checkDatabase(path: string): DatabaseCheck {
  if (!existsSync(path)) return { state: "missing" };
  let db: ReturnType<typeof readDatabase> | undefined;
  try {
    db = readDatabase(path);
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > MIGRATIONS.length) {
      return {
        state: "problem",
        problem: `schema version ${version} is newer than this bosun knows (${MIGRATIONS.length})`,
        version,
      };
    }
    const found = (db.pragma("integrity_check(20)") as Array<{ integrity_check: string }>).map(
      (r) => r.integrity_check,
    );
    if (found.length !== 1 || found[0] !== "ok") {
      return { state: "problem", problem: `integrity check failed: ${found.join("; ")}`, failure: "corrupt", version };
    }
    // A database older than the sessions table is not a bosun one that any migration made.
    const sessions =
      version === 0 ? 0 : (db.prepare("SELECT COUNT(*) AS n FROM sessions").get() as { n: number } | undefined)?.n;
    return { state: "ok", version, latest: MIGRATIONS.length, sessions: sessions ?? 0 };
  } catch (error) {
    const failure = classifyStoreFailure(error);
    if (!failure) throw error;
    const explained = storeError(error, path);
    return { state: "problem", problem: (error as Error).message, failure: explained?.failure ?? failure };
  } finally {
    db?.close();
  }
}
