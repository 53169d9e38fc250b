import { accessSync, constants } from "node:fs";
import { dirname } from "node:path";
import { BosunError } from "../errors.js";

/**
 * Why the session database could not be used, in one closed set of classes, each with a message
 * naming the file and what to do. Every store failure a person can meet (a broken file, a folder
 * that cannot be written, a full disk, a lock held too long) goes through `storeError`; anything
 * it does not know stays what it was (an internal error).
 */
export type StoreFailure = "corrupt" | "read-only" | "full" | "cannot-open" | "busy" | "io";

/** A session database failure explained: exit 1 (the store, not the command line, is at fault). */
export class StoreError extends BosunError {
  constructor(
    message: string,
    readonly failure: StoreFailure,
  ) {
    super(message, 1);
  }
}

/** The class of a SQLite error (better-sqlite3's extended codes) or a file system errno, if a store one. */
export function classifyStoreFailure(error: unknown): StoreFailure | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return undefined;
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) return "corrupt";
  if (code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT") return "full";
  if (code.startsWith("SQLITE_READONLY") || code === "EROFS" || code === "EACCES" || code === "EPERM")
    return "read-only";
  if (code === "SQLITE_PERM" || code === "SQLITE_AUTH") return "read-only";
  if (code.startsWith("SQLITE_CANTOPEN") || code === "ENOTDIR" || code === "EISDIR") return "cannot-open";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "busy";
  if (code.startsWith("SQLITE_IOERR") || code === "EIO") return "io";
  return undefined;
}

/**
 * The `StoreError` for a failure on the database at `path`, or undefined when `error` is no store
 * failure. A `StoreError` is returned as it is.
 */
export function storeError(error: unknown, path: string): StoreError | undefined {
  if (error instanceof StoreError) return error;
  const failure = classifyStoreFailure(error);
  if (!failure) return undefined;
  const code = (error as { code: string }).code;
  const folder = dirname(path);
  // SQLite says "cannot open" both for a folder it may not write (no room for its -wal and -shm
  // files) and for one that is not there: which one it is decides what the person should do.
  const kind = failure === "cannot-open" && !writable(folder) && code.startsWith("SQLITE") ? "read-only" : failure;
  return new StoreError(describe(kind, path, folder, code, (error as Error).message), kind);
}

function describe(kind: StoreFailure, path: string, folder: string, code: string, detail: string): string {
  switch (kind) {
    case "corrupt":
      return `${path} is not a readable bosun database (${detail}); move it aside (mv ${path} ${path}.broken) and bosun starts a new one; \`bosun doctor\` checks it`;
    case "full":
      return `cannot write ${path}: the disk is full (${code}); nothing already recorded is lost — free some space on the disk holding ${folder}, then carry on (bosun run -c resumes the session)`;
    case "read-only":
      return `cannot write ${path}: ${folder} is read-only or not yours (${code}); make it writable, or point BOSUN_HOME at a folder you can write — reading commands (sessions, sessions show, sessions export, why) still work`;
    case "cannot-open":
      return `cannot open ${path} (${code}: ${detail}); check that ${folder} is a folder you can write, or point BOSUN_HOME elsewhere; \`bosun doctor\` checks it`;
    case "busy":
      return `${path} stayed locked by another bosun process past the 15 s wait (${code}); try again when it has finished`;
    case "io":
      return `cannot read or write ${path}: disk I/O error (${code}); check the disk holding ${folder}; \`bosun doctor\` checks the database`;
  }
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch (error) {
    // A folder that is not there is not read-only: it is missing (SQLite's cannot-open).
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}
