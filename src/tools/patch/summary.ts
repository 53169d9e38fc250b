import { diffHunks } from "../diff-hunks.js";
import type { PlannedFile } from "./plan.js";

/** Diff lines shown in the result, for all the files together, before the rest is summarised. */
const MAX_DIFF_LINES = 120;

/** "M src/a.ts (+2 -1)", "R old.ts → new.ts (+0 -0)": one line per file. */
export function fileLine(file: PlannedFile, counts: { added: number; removed: number }): string {
  const name = file.shownTo ? `${file.shown} → ${file.shownTo}` : file.shown;
  const note = file.replaces ? ", replacing the file there" : "";
  return `${file.letter} ${name} (+${counts.added} -${counts.removed}${note})`;
}

/** A file's unified diff (line endings shown as LF) and its line counts. */
export function fileDiff(file: PlannedFile): { lines: string[]; added: number; removed: number } {
  const from = file.letter === "A" && !file.replaces ? "/dev/null" : file.shown;
  const to = file.letter === "D" ? "/dev/null" : (file.shownTo ?? file.shown);
  const hunks = diffHunks(from, to, file.before, file.after);
  return { ...hunks, lines: [`--- ${from}`, `+++ ${to}`, ...hunks.lines] };
}

/** The summary lines and the diffs of every file, the diffs cut to MAX_DIFF_LINES together. */
export function renderPatch(files: readonly PlannedFile[]): { summary: string[]; diff: string[] } {
  const summary: string[] = [];
  const diff: string[] = [];
  for (const file of files) {
    const d = fileDiff(file);
    summary.push(fileLine(file, d));
    diff.push(...d.lines);
  }
  if (diff.length > MAX_DIFF_LINES) {
    const more = diff.length - MAX_DIFF_LINES;
    diff.length = MAX_DIFF_LINES;
    diff.push(`… ${more} more diff lines`);
  }
  return { summary, diff };
}
