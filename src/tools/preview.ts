import { readFile, realpath } from "node:fs/promises";
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import type { ToolContext } from "../contracts/tools.js";
import { displayPath, resolvePath } from "./paths.js";

/** Diff lines shown to the person before the rest is summarised. */
const MAX_PREVIEW_LINES = 80;

/** A unified diff of a file's change, cut to a readable length, for the approval prompt. */
export function diffPreview(cwd: string, absolute: string, before: string, after: string): string {
  const shown = displayPath(cwd, absolute);
  // The ---/+++ header and the hunks; not the "Index:" and "=====" banner lines.
  const patch = createTwoFilesPatch(shown, shown, before, after, undefined, undefined, {
    context: 3,
    headerOptions: FILE_HEADERS_ONLY,
  });
  const lines = patch.split("\n");
  while (lines.at(-1) === "") lines.pop();
  if (lines.length <= MAX_PREVIEW_LINES) return lines.join("\n");
  return [...lines.slice(0, MAX_PREVIEW_LINES), `… ${lines.length - MAX_PREVIEW_LINES} more diff lines`].join("\n");
}

/**
 * The file's current text, or "" when it does not exist or cannot be read (a new file). Through
 * the editor (ACP fs) when it reads for bosun: the call will change its buffer, so the diff is of
 * that. The editor is asked only for a file the disk has; one that fails to answer throws, and
 * the ask goes without a diff rather than with one of the wrong text.
 */
export async function currentText(
  cwd: string,
  path: string,
  through?: Pick<ToolContext, "access" | "signal">,
): Promise<{ absolute: string; text: string }> {
  const absolute = resolvePath(cwd, path);
  let text: string;
  let real: string;
  try {
    text = await readFile(absolute, "utf8");
    real = await realpath(absolute);
  } catch {
    return { absolute, text: "" };
  }
  const read = through?.access?.read;
  if (!read) return { absolute, text };
  // The path as the tool will give it to the editor: resolved, as the gate judged it.
  return { absolute, text: await read(real, through?.signal ?? new AbortController().signal) };
}
