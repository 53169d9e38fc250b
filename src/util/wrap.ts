/**
 * Text fitted to a width, in characters (code points). Words are never cut, except a word longer
 * than the whole width, which is split at the width because there is no other way to show it.
 */

/** The length of `text` as the terminal counts it (code points, not UTF-16 units). */
export function textWidth(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** `text` in lines of at most `width`, broken between words; runs of white space become one space. */
export function wrapWords(text: string, width: number): string[] {
  const room = Math.max(1, width);
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    for (const piece of splitLong(word, room)) {
      if (line === "") line = piece;
      else if (textWidth(line) + 1 + textWidth(piece) <= room) line = `${line} ${piece}`;
      else {
        lines.push(line);
        line = piece;
      }
    }
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}

/** `text` on one line of at most `width`: whole words, then "…" when some were left out. */
export function shorten(text: string, width: number): string {
  const flat = text.split(/\s+/).filter(Boolean).join(" ");
  if (textWidth(flat) <= width) return flat;
  const room = Math.max(1, width - 1);
  const kept = wrapWords(flat, room)[0] ?? "";
  // A first word longer than the room is cut: the only case where a word is broken.
  return `${[...kept].slice(0, room).join("")}…`;
}

function splitLong(word: string, width: number): string[] {
  const chars = [...word];
  if (chars.length <= width) return [word];
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += width) pieces.push(chars.slice(i, i + width).join(""));
  return pieces;
}

/** `text` padded with spaces to `width` characters (never cut). */
export function padTo(text: string, width: number): string {
  const missing = width - textWidth(text);
  return missing > 0 ? text + " ".repeat(missing) : text;
}
