/**
 * A file's text as lines for a patch, and back, changing nothing the patch did not: each kept
 * line keeps its own line ending, added lines take the file's dominant one, and the file keeps
 * (or lacks) its final newline.
 */

export interface TextLines {
  /** The lines without "\n"; a CRLF file's lines keep their "\r". */
  raw: string[];
  /** The lines as they are compared with a patch's: without a trailing "\r". */
  plain: string[];
  crlf: boolean;
  finalNewline: boolean;
}

export function splitText(text: string): TextLines {
  const finalNewline = text === "" || text.endsWith("\n");
  const raw = text === "" ? [] : text.split("\n");
  if (finalNewline && raw.length > 0) raw.pop();
  const breaks = text.split("\n").length - 1;
  const crlfBreaks = text.split("\r\n").length - 1;
  return {
    raw,
    plain: raw.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line)),
    crlf: breaks > 0 && crlfBreaks > breaks - crlfBreaks,
    finalNewline,
  };
}

/** A line the patch adds, with the file's line ending. */
export function addedLine(text: string, lines: Pick<TextLines, "crlf">): string {
  return lines.crlf ? `${text}\r` : text;
}

export function joinText(raw: readonly string[], lines: Pick<TextLines, "finalNewline" | "crlf">): string {
  if (raw.length === 0) return "";
  return raw.join("\n") + (lines.finalNewline ? "\n" : "");
}
