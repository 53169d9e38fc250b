import { existsSync, rmdirSync } from "node:fs";
import { dirname } from "node:path";
import { readFileAt, removeFileAt, writeFileAt } from "../../util/safe-write.js";

/** What was at a path before the patch: its bytes and mode. */
export interface Previous {
  data: Buffer;
  mode: number;
}

/** One change to the file system, with what it replaces (to put back if a later step fails). */
export type CommitStep =
  | { op: "write"; target: string; content: string; previous?: Previous; mode?: number }
  | { op: "remove"; target: string; previous: Previous };

export type CommitResult =
  | { ok: true }
  | {
      ok: false;
      /** The step that failed, and why. */
      failed: CommitStep;
      error: unknown;
      /** Steps done before it that could not be undone, and why: those files are not as they were. */
      notRestored: Array<{ target: string; error: unknown }>;
    };

/** The file operations, for tests that make one fail. */
export interface CommitIo {
  write: typeof writeFileAt;
  remove: typeof removeFileAt;
}

const REAL_IO: CommitIo = { write: writeFileAt, remove: removeFileAt };

/**
 * Makes every step, in order, each atomically (safe-write.ts); if one fails, undoes the ones
 * done, newest first: a replaced file gets its bytes back, a created one is removed (and the
 * folders made for it, when left empty), a removed one is written back. All of it or none of it,
 * as far as the file system lets an undo succeed; what could not be undone is said.
 */
export function commitAll(steps: readonly CommitStep[], io: CommitIo = REAL_IO): CommitResult {
  const done: Array<{ step: CommitStep; madeFolders: string[] }> = [];
  for (const step of steps) {
    const madeFolders = step.op === "write" && !step.previous ? missingFolders(step.target) : [];
    try {
      if (step.op === "write") {
        io.write(step.target, step.content, {
          parents: madeFolders.length > 0,
          ...(step.mode !== undefined ? { mode: step.mode } : {}),
        });
      } else io.remove(step.target);
      done.push({ step, madeFolders });
    } catch (error) {
      removeEmpty(madeFolders);
      return { ok: false, failed: step, error, notRestored: undo(done, io) };
    }
  }
  return { ok: true };
}

function undo(done: Array<{ step: CommitStep; madeFolders: string[] }>, io: CommitIo) {
  const notRestored: Array<{ target: string; error: unknown }> = [];
  for (const { step, madeFolders } of [...done].reverse()) {
    try {
      if (step.op === "remove") io.write(step.target, step.previous.data, { mode: step.previous.mode & 0o7777 });
      else if (step.previous) io.write(step.target, step.previous.data);
      else {
        // Only what this patch wrote is removed: a file someone else put there meanwhile stays.
        const now = readFileAt(step.target);
        if (now.kind === "file" && now.data.equals(Buffer.from(step.content, "utf8"))) io.remove(step.target);
        removeEmpty(madeFolders);
      }
    } catch (error) {
      notRestored.push({ target: step.target, error });
    }
  }
  return notRestored;
}

/** The folders above `target` that do not exist yet, deepest first. */
function missingFolders(target: string): string[] {
  const missing: string[] = [];
  for (let folder = dirname(target); !existsSync(folder) && dirname(folder) !== folder; folder = dirname(folder)) {
    missing.push(folder);
  }
  return missing;
}

/** Removes folders (deepest first) while they are empty. */
function removeEmpty(folders: readonly string[]): void {
  for (const folder of folders) {
    try {
      rmdirSync(folder);
    } catch {
      return;
    }
  }
}
