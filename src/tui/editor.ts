import { commonStart } from "../input/complete-path.js";

/** Pasted text longer than this is shown collapsed (the whole text is still sent). */
export const PASTE_COLLAPSE_CHARS = 200;

/** A collapsed paste as it stands in the text; its content is kept aside. */
const PASTE_MARKER = /\[pasted #(\d+): \d+ lines?\]/g;

/** The text being written, where the cursor is, and what ↑/↓ and Tab left behind. */
export interface Editor {
  value: string;
  /** Where the cursor is: an index into `value` (its length at the end). */
  cursor: number;
  pastes: string[];
  /** How far back in the history ↑ went; 0 is the line being written. */
  back: number;
  /** The line being written when ↑ went back, so ↓ can return to it. */
  draft: string;
  /** The `@path` candidates Tab found when more than one matched. */
  candidates: string[];
}

export const EMPTY_EDITOR: Editor = { value: "", cursor: 0, pastes: [], back: 0, draft: "", candidates: [] };

const at = (editor: Editor, value: string, cursor: number): Editor => ({ ...editor, value, cursor, candidates: [] });

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Where the character before `index` starts: a whole emoji or accented letter, never half of one. */
function previousBoundary(value: string, index: number): number {
  let last = 0;
  for (const { index: start } of graphemes.segment(value)) {
    if (start >= index) break;
    last = start;
  }
  return last;
}

/** Where the character at `index` ends. */
function nextBoundary(value: string, index: number): number {
  for (const { index: start, segment } of graphemes.segment(value)) {
    if (start >= index) return start + segment.length;
  }
  return value.length;
}

/** The collapsed pastes in the text, as [start, end) spans: the cursor never stops inside one. */
function markerSpans(value: string): Array<[number, number]> {
  return [...value.matchAll(PASTE_MARKER)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length]);
}

/** The start of the line the cursor is on. */
function lineStart(value: string, cursor: number): number {
  return cursor === 0 ? 0 : value.lastIndexOf("\n", cursor - 1) + 1;
}

/** Types `text` at the cursor; a large paste goes in as a marker, its content kept. */
/**
 * A Ctrl key pressed just before typing can reach Ink in the same chunk as the text after it (a
 * fast terminal, tmux send-keys): the chunk then comes as text. This splits the leading Ctrl
 * keys off (as their letters, `\x0f` is "o"), so the key still acts and the text is typed.
 */
export function splitLeadingControls(input: string): { keys: string[]; rest: string } {
  const keys: string[] = [];
  let at = 0;
  for (; at < input.length; at++) {
    const code = input.charCodeAt(at);
    if (code < 0x01 || code > 0x1a || code === 0x09 || code === 0x0a || code === 0x0d) break;
    keys.push(String.fromCharCode(code + 0x60));
  }
  return { keys, rest: input.slice(at) };
}

/** What the editor keeps of typed text: no control characters but newlines and tabs. */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}

export function insert(editor: Editor, text: string): Editor {
  const { value, cursor, pastes } = editor;
  let piece = text;
  let kept = pastes;
  if (text.length > PASTE_COLLAPSE_CHARS) {
    const lines = text.split(/\r?\n|\r/).length;
    piece = `[pasted #${pastes.length}: ${lines} line${lines === 1 ? "" : "s"}]`;
    kept = [...pastes, text];
  }
  return { ...at(editor, value.slice(0, cursor) + piece + value.slice(cursor), cursor + piece.length), pastes: kept };
}

/** Deletes the character before the cursor, or the whole paste marker that ends there. */
export function backspace(editor: Editor): Editor {
  const { value, cursor } = editor;
  if (cursor === 0) return editor;
  const before = value.slice(0, cursor);
  const marker = /\[pasted #\d+: \d+ lines?\]$/.exec(before);
  const from = marker ? cursor - marker[0].length : previousBoundary(value, cursor);
  return at(editor, value.slice(0, from) + value.slice(cursor), from);
}

/** Deletes the word before the cursor (Ctrl-W). */
export function deleteWord(editor: Editor): Editor {
  const { value, cursor } = editor;
  const before = value.slice(0, cursor).replace(/\S+\s*$/, "");
  return at(editor, before + value.slice(cursor), before.length);
}

/** Deletes from the start of the line to the cursor (Ctrl-U). */
export function deleteToStart(editor: Editor): Editor {
  const { value, cursor } = editor;
  const start = lineStart(value, cursor);
  return at(editor, value.slice(0, start) + value.slice(cursor), start);
}

/** Moves the cursor: a character left or right, or to the start or end of its line. */
export function move(editor: Editor, where: "left" | "right" | "start" | "end"): Editor {
  const { value, cursor } = editor;
  let next =
    where === "left"
      ? previousBoundary(value, cursor)
      : where === "right"
        ? nextBoundary(value, cursor)
        : where === "start"
          ? lineStart(value, cursor)
          : value.indexOf("\n", cursor) === -1
            ? value.length
            : value.indexOf("\n", cursor);
  // Over a collapsed paste in one step: typing inside its marker would lose the paste.
  for (const [start, end] of markerSpans(value)) {
    if (next > start && next < end) next = where === "left" || where === "start" ? start : end;
  }
  return { ...editor, cursor: next };
}

/** ↑ (older) or ↓ (newer) through the history; back at the start, the line being written returns. */
export function walkHistory(editor: Editor, history: readonly string[], direction: "older" | "newer"): Editor {
  const back = Math.max(0, Math.min(history.length, editor.back + (direction === "older" ? 1 : -1)));
  if (back === editor.back) return editor;
  const draft = editor.back === 0 ? editor.value : editor.draft;
  const value = back === 0 ? draft : (history[history.length - back] ?? "");
  return { ...at(editor, value, value.length), back, draft };
}

/** Tab on an `@path` just before the cursor: the one match filled in, or what all matches share (listed). */
export function completeAt(editor: Editor, complete: (partial: string) => string[]): Editor | undefined {
  const before = editor.value.slice(0, editor.cursor);
  const word = /(?:^|\s)@(\S*)$/.exec(before);
  if (!word) return undefined;
  const partial = word[1] as string;
  const candidates = complete(partial);
  if (candidates.length === 0) return editor;
  const filled = candidates.length === 1 ? (candidates[0] as string) : commonStart(candidates);
  const end = candidates.length === 1 && !filled.endsWith("/") ? " " : "";
  const start = editor.cursor - partial.length;
  const value = editor.value.slice(0, start) + filled + end + editor.value.slice(editor.cursor);
  return {
    ...at(editor, value, start + filled.length + end.length),
    candidates: candidates.length > 1 ? candidates : [],
  };
}

/** The text to send: paste markers replaced by what was pasted. */
export function textOf(editor: Editor): string {
  return editor.value.replace(PASTE_MARKER, (marker, n) => editor.pastes[Number(n)] ?? marker);
}

/** The text split at the cursor for drawing: before it, the character under it (whole), after it. */
export function cursorParts(editor: Editor): { before: string; under: string; after: string } {
  const { value, cursor } = editor;
  const end = nextBoundary(value, cursor);
  return { before: value.slice(0, cursor), under: value.slice(cursor, end), after: value.slice(end) };
}
