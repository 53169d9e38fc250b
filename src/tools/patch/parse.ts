/**
 * The patch format OpenAI's models are trained to write (Codex's apply_patch envelope), read
 * into a description of the change per file. Pure: no file is looked at here.
 *
 *   *** Begin Patch
 *   *** Add File: path          then its lines, each prefixed "+"
 *   *** Delete File: path
 *   *** Update File: path       then optionally "*** Move to: newpath", then hunks:
 *   @@ optional context line    (several @@ lines narrow in turn; the first hunk may omit @@)
 *    context / -removed / +added lines, optionally ending with "*** End of File"
 *   *** End Patch
 *
 * Forgiven, as Codex forgives: whitespace around the markers, blank lines around the envelope,
 * the shell here-document a model sometimes wraps it in (`apply_patch <<'EOF'` … `EOF`), an
 * empty line inside a hunk (an empty context line), and a unified diff's line numbers after @@.
 */

export type HunkLine = { kind: "context" | "remove" | "add"; text: string };

export interface Hunk {
  /** The @@ lines' text, in order: each narrows where the next is looked for. */
  contexts: string[];
  lines: HunkLine[];
  /** Ends with "*** End of File": its lines are the file's last. */
  endOfFile: boolean;
  /** The patch line (1-based) the hunk starts on. */
  line: number;
}

export type FileChange =
  | { kind: "add"; path: string; content: string; line: number }
  | { kind: "delete"; path: string; line: number }
  | { kind: "update"; path: string; moveTo?: string; hunks: Hunk[]; line: number };

/** Where the patch did not parse: its line (1-based), and the file section and hunk when inside one. */
export interface PatchSyntaxError {
  line: number;
  message: string;
  file?: string;
  hunk?: number;
}

export type ParsedPatch = { ok: true; changes: FileChange[] } | { ok: false; error: PatchSyntaxError };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File:";
const DELETE = "*** Delete File:";
const UPDATE = "*** Update File:";
const MOVE = "*** Move to:";
const EOF_MARK = "*** End of File";

interface Cursor {
  lines: string[];
  /** Index into `lines` of the next line to read. */
  at: number;
  /** The patch line number of `lines[0]`. */
  first: number;
}

class SyntaxFailure extends Error {
  constructor(readonly error: PatchSyntaxError) {
    super(error.message);
  }
}

/** The patch's changes, or exactly where and why it does not parse. */
export function parsePatch(text: string): ParsedPatch {
  try {
    return { ok: true, changes: parseEnvelope(text) };
  } catch (error) {
    if (error instanceof SyntaxFailure) return { ok: false, error: error.error };
    throw error;
  }
}

/** "line 7 (hunk 2 of Update File: a.ts): …" — what the model is told. */
export function formatSyntaxError(error: PatchSyntaxError): string {
  const where = error.file ? ` (${error.hunk ? `hunk ${error.hunk} of ` : ""}${error.file})` : "";
  return `the patch does not parse at line ${error.line}${where}: ${error.message}`;
}

function parseEnvelope(text: string): FileChange[] {
  const all = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  let start = 0;
  let end = all.length;
  while (start < end && all[start]?.trim() === "") start++;
  while (end > start && all[end - 1]?.trim() === "") end--;
  // A here-document around the patch: `apply_patch <<'EOF'` … `EOF`.
  const heredoc = /^(?:apply_patch\s+)?<<\s*(['"]?)([A-Za-z_]\w*)\1\s*$/.exec(all[start]?.trim() ?? "");
  if (heredoc && end - start >= 2 && all[end - 1]?.trim() === heredoc[2]) {
    start++;
    end--;
  }
  if (start === end) fail(1, `the patch is empty; it must start with "${BEGIN}"`);
  if (all[start]?.trim() !== BEGIN) fail(start + 1, `the patch must start with "${BEGIN}", got ${quote(all[start])}`);
  if (end - start < 2 || all[end - 1]?.trim() !== END) {
    fail(end, `the patch must end with "${END}", got ${quote(all[end - 1])}`);
  }
  const cursor: Cursor = { lines: all.slice(start + 1, end - 1), at: 0, first: start + 2 };
  const changes: FileChange[] = [];
  while (cursor.at < cursor.lines.length) {
    const raw = cursor.lines[cursor.at] as string;
    if (raw.trim() === "") {
      cursor.at++;
      continue;
    }
    changes.push(parseSection(cursor));
  }
  if (changes.length === 0) fail(end, "the patch changes no file");
  checkDistinct(changes);
  return changes;
}

/** One file's section, starting at its header. */
function parseSection(cursor: Cursor): FileChange {
  const header = (cursor.lines[cursor.at] as string).trim();
  const line = lineNo(cursor);
  cursor.at++;
  if (header.startsWith(ADD)) {
    const path = pathOf(header, ADD, line);
    const content: string[] = [];
    while (cursor.at < cursor.lines.length && (cursor.lines[cursor.at] as string).startsWith("+")) {
      content.push((cursor.lines[cursor.at] as string).slice(1));
      cursor.at++;
    }
    // Blank lines between sections are forgiven; a blank line before more "+" lines is not (is it content?).
    let after = cursor.at;
    while (after < cursor.lines.length && (cursor.lines[after] as string).trim() === "") after++;
    const next = cursor.lines[after];
    if (next !== undefined && !isHeader(next)) {
      cursor.at = after;
      fail(lineNo(cursor), `every line of an added file starts with "+", got ${quote(next)}`, `Add File: ${path}`);
    }
    return { kind: "add", path, content: content.map((l) => `${l}\n`).join(""), line };
  }
  if (header.startsWith(DELETE)) return { kind: "delete", path: pathOf(header, DELETE, line), line };
  if (header.startsWith(UPDATE)) return parseUpdate(cursor, pathOf(header, UPDATE, line), line);
  if (header.startsWith(MOVE)) fail(line, `"${MOVE}" must follow an "${UPDATE}" line`);
  return fail(line, `expected a file header ("${ADD}", "${UPDATE}", "${DELETE}") or "${END}", got ${quote(header)}`);
}

function parseUpdate(cursor: Cursor, path: string, line: number): FileChange {
  const section = `Update File: ${path}`;
  let moveTo: string | undefined;
  const next = cursor.lines[cursor.at]?.trim();
  if (next?.startsWith(MOVE)) {
    moveTo = pathOf(next, MOVE, lineNo(cursor));
    cursor.at++;
  }
  const hunks: Hunk[] = [];
  while (cursor.at < cursor.lines.length && !isHeader(cursor.lines[cursor.at] as string)) {
    hunks.push(parseHunk(cursor, section, hunks.length + 1));
  }
  if (hunks.length === 0 && moveTo === undefined) {
    fail(line, "an updated file needs at least one hunk (@@ and its lines)", section);
  }
  return { kind: "update", path, ...(moveTo !== undefined ? { moveTo } : {}), hunks, line };
}

/** One hunk: its @@ lines, then context, removed and added lines, up to the next @@ or header. */
function parseHunk(cursor: Cursor, section: string, number: number): Hunk {
  const start = lineNo(cursor);
  const contexts: string[] = [];
  while (cursor.at < cursor.lines.length && (cursor.lines[cursor.at] as string).trim().startsWith("@@")) {
    const marker = (cursor.lines[cursor.at] as string).trim();
    const context = marker === "@@" ? "" : marker.startsWith("@@ ") ? marker.slice(3) : undefined;
    if (context === undefined)
      fail(lineNo(cursor), `a hunk header is "@@" or "@@ <a line of the file>", got ${quote(marker)}`, section, number);
    // A unified diff's line numbers (`@@ -12,5 +12,6 @@ def f():`) say nothing here: what follows them is the context.
    const stripped = (context as string).replace(/^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?/, "");
    if (stripped !== "") contexts.push(stripped);
    cursor.at++;
  }
  if (contexts.length === 0 && start === lineNo(cursor) && number > 1) {
    fail(start, `a hunk after the first starts with "@@", got ${quote(cursor.lines[cursor.at])}`, section, number);
  }
  const lines: HunkLine[] = [];
  let endOfFile = false;
  while (cursor.at < cursor.lines.length) {
    const raw = cursor.lines[cursor.at] as string;
    if (raw.trim() === EOF_MARK) {
      endOfFile = true;
      cursor.at++;
      break;
    }
    if (isHeader(raw) || raw.trim().startsWith("@@")) break;
    const kind = raw === "" ? "context" : KINDS[raw[0] as string];
    if (!kind) {
      fail(
        lineNo(cursor),
        `a hunk's lines start with " " (context), "-" (removed) or "+" (added), got ${quote(raw)}`,
        section,
        number,
      );
    }
    lines.push({ kind: kind as HunkLine["kind"], text: raw.slice(1) });
    cursor.at++;
  }
  if (lines.length === 0) fail(start, "the hunk has no lines", section, number);
  return { contexts, lines, endOfFile, line: start };
}

const KINDS: Record<string, HunkLine["kind"] | undefined> = { " ": "context", "-": "remove", "+": "add" };

/** A file header or the envelope's end: where a section's lines stop. */
function isHeader(line: string): boolean {
  const trimmed = line.trim();
  return [ADD, DELETE, UPDATE].some((h) => trimmed.startsWith(h)) || trimmed === END || trimmed.startsWith(MOVE);
}

function pathOf(header: string, prefix: string, line: number): string {
  const path = header.slice(prefix.length).trim();
  if (path === "") fail(line, `"${prefix}" needs a path`);
  return path;
}

/** One section per file: two sections changing one path (or a move onto another's path) would depend on their order. */
function checkDistinct(changes: FileChange[]): void {
  const seen = new Map<string, number>();
  for (const change of changes) {
    const paths =
      change.kind === "update" && change.moveTo !== undefined ? [change.path, change.moveTo] : [change.path];
    for (const path of paths) {
      const before = seen.get(path);
      if (before !== undefined) {
        fail(
          change.line,
          `${path} is also changed by the section at line ${before}; put all of a file's hunks in one section`,
        );
      }
      seen.set(path, change.line);
    }
  }
}

function lineNo(cursor: Cursor): number {
  return cursor.first + cursor.at;
}

function quote(line: string | undefined): string {
  if (line === undefined) return "the end of the patch";
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}

function fail(line: number, message: string, file?: string, hunk?: number): never {
  throw new SyntaxFailure({ line, message, ...(file ? { file } : {}), ...(hunk ? { hunk } : {}) });
}
