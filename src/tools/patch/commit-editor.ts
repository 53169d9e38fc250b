import type { FileAccess } from "../../contracts/tools.js";
import type { CommitResult } from "./commit.js";
import type { PlannedFile } from "./plan.js";

/**
 * A patch's writes through the editor (ACP fs), in order: its buffers take the new text, the disk
 * is never written behind it. If one fails (the editor refused, or did not answer in time), the
 * buffers already changed get their text back, newest first. The editor has no way to remove a
 * file: a patch that removes one is refused before this (apply-patch.ts), and a file this patch
 * added cannot be taken back: that is said.
 */
export async function commitThroughEditor(
  files: readonly PlannedFile[],
  write: NonNullable<FileAccess["write"]>,
  signal: AbortSignal,
): Promise<CommitResult> {
  const done: Array<{ target: string; before?: string }> = [];
  for (const file of files) {
    for (const step of file.steps) {
      if (step.op !== "write") continue;
      try {
        await write(step.target, step.content, signal);
        done.push({ target: step.target, ...(step.previous ? { before: file.before } : {}) });
      } catch (error) {
        return { ok: false, failed: step, error, notRestored: await undo(done, write) };
      }
    }
  }
  return { ok: true };
}

async function undo(done: ReadonlyArray<{ target: string; before?: string }>, write: NonNullable<FileAccess["write"]>) {
  const notRestored: Array<{ target: string; error: unknown }> = [];
  // The call's own signal may be what failed: putting the buffers back gets its own bound (the editor's).
  const signal = new AbortController().signal;
  for (const { target, before } of [...done].reverse()) {
    if (before === undefined) {
      notRestored.push({ target, error: new Error("the editor has no way to remove a file this patch added") });
      continue;
    }
    try {
      await write(target, before, signal);
    } catch (error) {
      notRestored.push({ target, error });
    }
  }
  return notRestored;
}
