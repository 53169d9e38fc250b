import { chmodSync, closeSync, constants, lstatSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";

/**
 * The session database is the person's record of what was said and done — prompts, file contents,
 * command output — so it is readable by its owner only: the data folder 0700, the database 0600.
 *
 * SQLite creates its file with 0644 less the umask, and then makes `-wal` and `-shm` with the
 * database file's own mode (the unix VFS copies it). So the file is made here first, empty and
 * 0600 (an empty file is an empty database to SQLite), and the two files SQLite adds beside it
 * come out 0600 whatever the umask. Files an older bosun made wider are narrowed. Only writing
 * opens come here: a read-only open changes nothing on disk.
 */

const OWNER_FILE = 0o600;
const OWNER_FOLDER = 0o700;

/** Makes the data folder (0700) and the database file (0600) if missing, and narrows them and its -wal and -shm when wider. */
export function preparePrivateDatabase(path: string): void {
  const folder = dirname(path);
  // The folders above (a home's .local/share) are the person's, made as any program would.
  mkdirSync(dirname(folder), { recursive: true });
  try {
    mkdirSync(folder, OWNER_FOLDER);
  } catch (error) {
    if (codeOf(error) !== "EEXIST") throw error;
    narrow(folder, OWNER_FOLDER);
  }
  try {
    // O_EXCL: another bosun creating it at the same moment is fine; whoever made it, made it 0600.
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, OWNER_FILE));
  } catch (error) {
    if (codeOf(error) !== "EEXIST") throw error;
    narrow(path, OWNER_FILE);
  }
  narrowSidecars(path);
}

/** `-wal` and `-shm` left wider by an older bosun (or made while the database was still wide), narrowed. */
export function narrowSidecars(path: string): void {
  for (const suffix of ["-wal", "-shm", "-journal"]) narrow(`${path}${suffix}`, OWNER_FILE);
}

/**
 * Takes group and other bits off a file or folder that has them. Best effort: a file that is not
 * there needs nothing, and one that is not ours (EPERM) or on a read-only disk (EROFS) cannot be
 * changed by us — SQLite then says what it can and cannot do with it.
 */
function narrow(path: string, mode: number): void {
  try {
    const info = lstatSync(path);
    if (info.isSymbolicLink() || (info.mode & 0o077) === 0) return;
    chmodSync(path, info.mode & mode & 0o777);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT" || code === "EPERM" || code === "EROFS" || code === "EACCES") return;
    throw error;
  }
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
