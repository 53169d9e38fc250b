import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { BosunError, UsageError } from "../../errors.js";
import { exportSession, importSession } from "../../session/transfer.js";
import { findSession } from "../../store/lookup.js";
import { writeFileAtomic } from "../../util/safe-write.js";
import { out } from "../output.js";
import { READ_ONLY, withStore } from "./store.js";

/** `bosun sessions export` and `import`: the only session commands that load the file format (zod). */

export function exportSessionCommand(ref: string, options: { output?: string }): void {
  withStore((store) => {
    const data = exportSession(store, findSession(store, ref));
    const text = `${JSON.stringify(data, null, 2)}\n`;
    if (options.output) writeAtomically(options.output, text);
    else out(text);
  }, READ_ONLY);
}

export function importSessionCommand(file: string): void {
  const source = file === "-" ? "stdin" : file;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file === "-" ? 0 : file, "utf8"));
  } catch (error) {
    throw new UsageError(`${source}: cannot read a session export: ${(error as Error).message}`);
  }
  withStore((store) => {
    const session = importSession(store, parsed, source);
    out(`imported ${session.id}${session.title ? ` (${session.title})` : ""}`);
  });
}

/**
 * Writes `text` to `file` whole or not at all (safe-write.ts: a temporary file in the same
 * folder, synced, then renamed over `file`; a link the person named is followed, one swapped in
 * meanwhile is not). A failure (no such folder, no space) leaves any earlier `file` as it was
 * and no temporary file behind. A path the person can fix is exit 2, anything else exit 1.
 */
function writeAtomically(file: string, text: string): void {
  try {
    // Owner-only: an export holds the whole conversation. A file it replaces keeps its own mode.
    writeFileAtomic(file, text, { followLink: true, mode: 0o600 });
  } catch (error) {
    throw writeError(file, dirname(resolve(file)), error as NodeJS.ErrnoException);
  }
}

function writeError(file: string, folder: string, error: NodeJS.ErrnoException): BosunError {
  switch (error.code) {
    case "ENOENT":
      return new UsageError(`cannot write ${file}: the folder ${folder} does not exist`);
    case "ENOTDIR":
      return new UsageError(`cannot write ${file}: part of ${folder} is not a folder`);
    case "EISDIR":
      return new UsageError(`cannot write ${file}: it is a folder`);
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return new UsageError(`cannot write ${file}: permission denied (${error.code})`);
    default:
      return new BosunError(`cannot write ${file}: ${error.message}`, 1);
  }
}
