import { chmodSync, type Dirent, lstatSync, mkdirSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { Answer, Decision } from "../contracts/decisions.js";
import type { SavedOutputs } from "../contracts/tools.js";
import { BosunError } from "../errors.js";
import { containedPath } from "../util/contained.js";

/**
 * bosun's saved outputs — a shell command's output beyond what the result holds, a cut tool
 * result's full text — live under the data folder, one folder per session
 * (`<data>/overflow/<session>/`), never in /tmp: owner-only (folders 0700, files 0600), capped in
 * total size (the oldest files go first to make room), and deleted at start-up once older than a
 * configured age. This file knows the folder; the tools write into it.
 */

/** One saved file, as found on disk. */
export interface SavedFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

/**
 * `<root>/<sessionId>`, refusing an id that is not exactly one name inside `root` (`..`, `a/b`,
 * an absolute path): the id comes from the store, which may hold an imported session's.
 */
export function sessionFolder(root: string, sessionId: string): string {
  const single = sessionId !== "" && sessionId !== "." && sessionId !== ".." && !/[/\\\0]/.test(sessionId);
  if (!single) {
    throw new BosunError(`session id ${JSON.stringify(sessionId)} cannot name a folder inside ${root}`, 1);
  }
  return containedPath(root, sessionId);
}

/** A session's saved-output folder and the cap on every session's saved outputs together. */
export class OutputFolder implements SavedOutputs {
  /** This session's folder; made (owner-only) when something is first saved. */
  readonly path: string;

  constructor(
    /** The folder of every session's saved outputs (`<data>/overflow`). */
    readonly root: string,
    sessionId: string,
    /** Most bytes all saved outputs may take together (config storage.output_max_mb). */
    readonly maxBytes: number,
  ) {
    this.path = sessionFolder(root, sessionId);
  }

  /** Makes the root and this session's folder if missing, owner-only (an existing one is narrowed to 0700). */
  prepare(): void {
    for (const folder of [this.root, this.path]) {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      // Made by an older bosun with the umask's mode: what is saved there is nobody else's to read.
      if ((lstatSync(folder).mode & 0o077) !== 0) chmodSync(folder, 0o700);
    }
  }

  /**
   * Makes room for `bytes` more under the cap, deleting the oldest saved files first (never
   * `keep`, the file being written), and returns how many bytes may be written now: up to
   * `wanted` (default `bytes`) when that fits without deleting more, fewer than `bytes` when
   * nothing more can be deleted.
   */
  makeRoom(bytes: number, keep?: string, wanted = bytes): number {
    const files = listSaved(this.root);
    let used = files.reduce((sum, file) => sum + file.bytes, 0);
    const room = () => Math.max(0, Math.min(Math.max(wanted, bytes), this.maxBytes - used));
    if (used + bytes <= this.maxBytes) return room();
    for (const file of oldestFirst(files)) {
      if (file.path === keep) continue;
      if (removeQuietly(file.path)) used -= file.bytes;
      if (used + bytes <= this.maxBytes) break;
    }
    return room();
  }
}

/** Every file under `root`'s session folders (links and other odd entries left alone); none when it is missing. */
export function listSaved(root: string): SavedFile[] {
  const files: SavedFile[] = [];
  for (const folder of entries(root)) {
    if (!folder.isDirectory()) continue;
    const path = join(root, folder.name);
    for (const entry of entries(path)) {
      if (!entry.isFile()) continue;
      const file = join(path, entry.name);
      try {
        const info = lstatSync(file);
        files.push({ path: file, bytes: info.size, mtimeMs: info.mtimeMs });
      } catch {
        // Removed meanwhile (another bosun cleaning up): nothing to count.
      }
    }
  }
  return files;
}

/** Saved files last written before `now - maxAgeMs`. */
export function expired(files: readonly SavedFile[], now: number, maxAgeMs: number): SavedFile[] {
  return files.filter((file) => file.mtimeMs < now - maxAgeMs);
}

export interface CleanupResult {
  /** Files deleted, and their bytes. */
  files: number;
  bytes: number;
  /** Old files that could not be deleted (left in place), when any. */
  failed?: number;
}

/**
 * Deletes the saved files older than `maxAgeDays`, and the session folders that leaves empty.
 * Cheap when there is nothing: a missing root costs one failed readdir.
 */
export function removeExpired(root: string, maxAgeDays: number, now = Date.now()): CleanupResult {
  const old = expired(listSaved(root), now, maxAgeDays * DAY_MS);
  const result: CleanupResult = { files: 0, bytes: 0 };
  for (const file of old) {
    if (!removeQuietly(file.path)) {
      result.failed = (result.failed ?? 0) + 1;
      continue;
    }
    result.files++;
    result.bytes += file.bytes;
  }
  if (old.length > 0) {
    for (const folder of entries(root)) {
      if (!folder.isDirectory()) continue;
      try {
        // Only an empty one goes: rmdir refuses the rest, and a session still writing makes it again.
        rmdirSync(join(root, folder.name));
      } catch {
        // Not empty, or gone.
      }
    }
  }
  return result;
}

/**
 * Seat storage.cleanup: what the start-up cleanup of saved outputs deleted, and by which rule.
 * `source` is where storage.output_max_age_days was set, when not by default.
 */
export function cleanupAnswer(
  root: string,
  maxAgeDays: number,
  result: CleanupResult,
  source?: string,
): Answer<CleanupResult> {
  return {
    holder: "config",
    answer: result,
    reasons: [
      {
        rule: "storage.output_max_age_days",
        detail: `saved outputs in ${root} last written more than ${maxAgeDays} ${maxAgeDays === 1 ? "day" : "days"} ago are deleted at start-up: ${result.files} ${result.files === 1 ? "file" : "files"}, ${result.bytes} bytes${result.failed ? `; ${result.failed} could not be deleted and stay` : ""}`,
        key: "storage.output_max_age_days",
        ...(source ? { source } : {}),
        decisive: true,
      },
    ],
  };
}

/**
 * The start-up cleanup: deletes the saved outputs in `root` older than `maxAgeDays` and returns
 * the storage.cleanup decision to record, or undefined when nothing was deleted (most starts:
 * a missing or young folder costs a listing, and the ledger is not filled with empty answers).
 */
export function startupCleanup(
  root: string,
  maxAgeDays: number,
  source?: string,
  now = Date.now(),
): Decision<CleanupResult> | undefined {
  const result = removeExpired(root, maxAgeDays, now);
  if (result.files === 0 && !result.failed) return undefined;
  return { seat: "storage.cleanup", ...cleanupAnswer(root, maxAgeDays, result, source) };
}

const DAY_MS = 24 * 60 * 60 * 1000;

function oldestFirst(files: readonly SavedFile[]): SavedFile[] {
  return [...files].sort((a, b) => a.mtimeMs - b.mtimeMs);
}

function entries(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

function removeQuietly(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}
