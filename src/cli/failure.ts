import { BosunError } from "../errors.js";
import { databasePath } from "../store/database.js";
import { storeError } from "../store/failure.js";

/**
 * What a person is shown for an error that escaped a command: a SQLite failure is one on the
 * session database (store/failure.ts explains it); a file system one that names its file (a full
 * disk while writing an attachment's overflow, say) is said with that file. Anything else is
 * returned as it was.
 */
export function explainFailure(error: unknown): unknown {
  if (error instanceof BosunError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("SQLITE_")) return storeError(error, databasePath()) ?? error;
  const path = (error as NodeJS.ErrnoException | null)?.path;
  if (typeof path === "string" && typeof code === "string" && code in FILE_ERRORS) {
    return new BosunError(`${path}: ${FILE_ERRORS[code]} (${code})`, 1);
  }
  return error;
}

const FILE_ERRORS: Record<string, string> = {
  ENOSPC: "the disk is full; free some space and try again",
  EDQUOT: "the disk quota is used up; free some space and try again",
  EROFS: "the file system is read-only; make it writable, or point BOSUN_HOME elsewhere if it is bosun's",
  EACCES: "permission denied; check its owner and mode",
};
