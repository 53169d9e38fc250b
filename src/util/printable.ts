/** C0 and C1 control characters and DEL: what drives a terminal (escapes, bells, carriage returns). */
// Built from code points: the pattern names control characters on purpose (what it removes).
const CONTROLS = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(0x1f)}${String.fromCharCode(0x7f)}-${String.fromCharCode(0x9f)}]`,
  "g",
);

/**
 * Text from elsewhere (a session's title, set by a client or taken from a message) as one line
 * that cannot drive the person's terminal: every control character becomes a space, so an escape
 * sequence is shown as harmless text, never run.
 */
export function printableLine(text: string): string {
  return text.replace(CONTROLS, " ");
}

const CONTROLS_BUT_NEWLINE = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(9)}${String.fromCharCode(0xb)}-${String.fromCharCode(0x1f)}${String.fromCharCode(0x7f)}-${String.fromCharCode(0x9f)}]`,
  "g",
);

/**
 * Text of several lines from elsewhere (a repository's recipe shown by `bosun recipe show`, an
 * error naming its title or file) as the terminal should show it: lines stay lines, every other
 * control character (escapes, bells, carriage returns, tabs) becomes a space, so nothing in it can
 * move the cursor, erase a line, hide a check or write the clipboard.
 */
export function printableText(text: string): string {
  return text.replace(CONTROLS_BUT_NEWLINE, " ");
}

const CONTROLS_BUT_LAYOUT = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(8)}${String.fromCharCode(0xb)}-${String.fromCharCode(0x1f)}${String.fromCharCode(0x7f)}-${String.fromCharCode(0x9f)}]`,
  "g",
);

/**
 * A model's answer (or a file's text) as `bosun run` writes it to the terminal: lines and tabs stay
 * (code keeps its shape), a carriage return is dropped (CRLF ends a line all the same; alone it
 * would draw over what the person just read), every other control character becomes a space —
 * so no OSC 52 clipboard write, no screen clear, no hidden text. Chunk by chunk is safe: each
 * control character is replaced on its own, so a sequence split across chunks is no more alive.
 */
export function printableAnswer(text: string): string {
  return text.replace(CONTROLS_BUT_LAYOUT, (c) => (c === "\r" ? "" : " "));
}

/** Whether text holds a control character (a title a client sends with one is refused). */
export function hasControls(text: string): boolean {
  CONTROLS.lastIndex = 0;
  return CONTROLS.test(text);
}

/**
 * `value` with every string in it (keys aside) made printableText: a record read back from the
 * ledger (a call's command, a file name, a reason quoting a server) ready to be laid out for a
 * terminal, whatever the view picks from it.
 */
export function printableDeep<T>(value: T): T {
  if (typeof value === "string") return printableText(value) as T;
  if (Array.isArray(value)) return value.map((v) => printableDeep(v)) as T;
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) copy[key] = printableDeep(v);
    return copy as T;
  }
  return value;
}
