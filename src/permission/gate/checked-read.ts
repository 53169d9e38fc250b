import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/**
 * Reading exactly the file a check judged — a link or file swapped in after the check is never
 * read. Apart from read-check.ts so what only reads (custom commands, loaded by the terminal UI)
 * does not load the rules with it.
 */

/** The file judged: its identity, so what is read later is the file that was checked. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/** What a check allowed: the real path it judged, and the file's identity when it existed. */
export interface Judged {
  real: string;
  identity?: FileIdentity;
}

export type CheckedRead = { text: string } | { tooBig: number } | { refused: string };

/**
 * Reads a file the check allowed: the real path it judged, opened without following a link
 * (O_NOFOLLOW) or blocking on a pipe, and refused unless it is the regular file that was judged
 * (same device and inode) — a link or file swapped in after the check is never read.
 * At most `maxBytes`; `tooBig` gives the size of a larger one.
 */
export function readChecked(verdict: Judged, maxBytes: number): CheckedRead {
  let fd: number;
  try {
    fd = openSync(verdict.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { refused: "became a link after it was checked" };
    return { refused: fileErrorReason(error) };
  }
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) return { refused: "a directory, not a file" };
    if (!info.isFile()) return { refused: "not a regular file" };
    const judged = verdict.identity;
    if (judged && (judged.dev !== info.dev || judged.ino !== info.ino)) {
      return { refused: "changed after it was checked (another file is there now)" };
    }
    if (!judged) return { refused: "appeared after it was checked" };
    if (info.size > maxBytes) return { tooBig: info.size };
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) return { tooBig: length };
      if (length === buffer.length) break;
    }
    return { text: buffer.subarray(0, length).toString("utf8") };
  } catch (error) {
    return { refused: fileErrorReason(error) };
  } finally {
    closeSync(fd);
  }
}

/** Why a file could not be read, in words (the error code kept where it helps). */
export function fileErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return "not found";
  if (code === "EACCES" || code === "EPERM") return `not readable (${code})`;
  if (code === "EISDIR") return "a directory, not a file";
  if (code === "ELOOP") return "a symlink loop (ELOOP)";
  return code ?? (error instanceof Error ? error.message : String(error));
}
