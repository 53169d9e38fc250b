import { structuredPatch } from "diff";

/**
 * The hunks of a unified diff from `before` to `after` (line endings shown as LF, 3 lines of
 * context), as lines under their `@@` headers, with how many lines were added and removed: what
 * edit and apply_patch show of a change.
 */
export function diffHunks(
  from: string,
  to: string,
  before: string,
  after: string,
): { lines: string[]; added: number; removed: number } {
  const lf = (text: string) => text.replace(/\r\n/g, "\n");
  const patch = structuredPatch(from, to, lf(before), lf(after), undefined, undefined, { context: 3 });
  const lines: string[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
      lines.push(line);
    }
  }
  return { lines, added, removed };
}
