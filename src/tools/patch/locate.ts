import type { Hunk, HunkLine } from "./parse.js";

/**
 * Where each hunk of an update goes in a file's lines, found by its context and removed lines
 * with Codex's tolerance: exactly, then ignoring trailing whitespace, then ignoring the whitespace
 * around each line. Hunks are looked for in order, each after the one before; an @@ line is looked
 * for first, and what follows it is taken at its first match after it.
 *
 * Codex takes the first match of a hunk wherever it is; bosun does not guess: a hunk's first
 * anchor (its first @@ line, or without one its own lines) that matches several places at the
 * first tolerance that matches at all is refused as ambiguous, naming the lines, so the model can
 * add an @@ line or more context. Pure.
 */

export type Fuzz = "exact" | "trailing-whitespace" | "whitespace";

const LEVELS: ReadonlyArray<{ fuzz: Fuzz; same: (a: string, b: string) => boolean }> = [
  { fuzz: "exact", same: (a, b) => a === b },
  { fuzz: "trailing-whitespace", same: (a, b) => a.trimEnd() === b.trimEnd() },
  { fuzz: "whitespace", same: (a, b) => a.trim() === b.trim() },
];

/**
 * Lines `start` to `start + removed` (0-based) replaced by `lines`: a number is a line of the file
 * kept as it is (a context line, matched perhaps loosely: the file's own text stays), a string a
 * line the patch adds.
 */
export interface Replacement {
  start: number;
  removed: number;
  lines: Array<number | string>;
}

/** Which hunk (1-based) did not apply, why, and the lines it expected to find. */
export interface HunkFailure {
  hunk: number;
  reason: string;
  expected: string[];
}

export type Located = { ok: true; replacements: Replacement[]; fuzz: Fuzz } | { ok: false; failure: HunkFailure };

type Found = { kind: "found"; at: number; fuzz: Fuzz } | { kind: "ambiguous"; at: number[] } | { kind: "none" };

/** Where every hunk goes in `lines`, or the first that cannot be placed. */
export function locateHunks(lines: readonly string[], hunks: readonly Hunk[]): Located {
  const replacements: Replacement[] = [];
  let cursor = 0;
  let worst = 0;
  for (const [index, hunk] of hunks.entries()) {
    const placed = locateHunk(lines, hunk, cursor, index + 1);
    if ("failure" in placed) return { ok: false, failure: placed.failure };
    replacements.push(placed.replacement);
    cursor = placed.replacement.start + placed.replacement.removed;
    worst = Math.max(
      worst,
      LEVELS.findIndex((l) => l.fuzz === placed.fuzz),
    );
  }
  return { ok: true, replacements, fuzz: LEVELS[worst]?.fuzz ?? "exact" };
}

/** `lines` with the replacements (in order, not overlapping) made; `added` shapes each added line (its line ending). */
export function applyReplacements(
  lines: readonly string[],
  replacements: readonly Replacement[],
  added: (text: string) => string = (text) => text,
): string[] {
  const out: string[] = [];
  let at = 0;
  for (const r of replacements) {
    out.push(...lines.slice(at, r.start));
    for (const line of r.lines) out.push(typeof line === "number" ? (lines[line] as string) : added(line));
    at = r.start + r.removed;
  }
  out.push(...lines.slice(at));
  return out;
}

function locateHunk(
  lines: readonly string[],
  hunk: Hunk,
  from: number,
  number: number,
): { replacement: Replacement; fuzz: Fuzz } | { failure: HunkFailure } {
  let cursor = from;
  let anchored = false;
  let fuzz: Fuzz = "exact";
  const failed = (reason: string, expected: string[]) => ({ failure: { hunk: number, reason, expected } });
  for (const context of hunk.contexts) {
    const found = findSequence(lines, [context], cursor, !anchored);
    if (found.kind === "none") return failed(`its @@ line was not found${after(from)}`, [context]);
    if (found.kind === "ambiguous") {
      return failed(
        `its @@ line matches ${found.at.length} places (lines ${listLines(found.at)}): add an @@ line before it naming the enclosing class or function`,
        [context],
      );
    }
    fuzz = worse(fuzz, found.fuzz);
    cursor = found.at + 1;
    anchored = true;
  }
  const body = withoutTrailingBlank(hunk.lines);
  const old = body.filter((l) => l.kind !== "add").map((l) => l.text);
  // Only added lines: after the @@ line when there is one, else at the end of the file.
  if (old.length === 0) {
    const start = anchored ? cursor : lines.length;
    return { replacement: { start, removed: 0, lines: body.map((l) => l.text) }, fuzz };
  }

  let found: Found = hunk.endOfFile ? atEnd(lines, old, cursor) : { kind: "none" };
  if (found.kind === "none") found = findSequence(lines, old, cursor, !anchored);
  if (found.kind === "ambiguous") {
    return failed(
      `its lines match ${found.at.length} places (lines ${listLines(found.at)}): add an @@ line naming the enclosing class or function, or more context lines`,
      old,
    );
  }
  if (found.kind === "none") {
    const earlier = cursor > 0 ? findSequence(lines.slice(0, cursor), old, 0, false) : ({ kind: "none" } as Found);
    const hint =
      earlier.kind === "none"
        ? ""
        : ` (they match before that, at line ${firstAt(earlier) + 1}: give a file's hunks in the order they appear)`;
    const where = anchored ? ` after its @@ line (line ${cursor})` : after(cursor);
    return failed(`its lines were not found${where}${hint}`, old);
  }
  return {
    replacement: { start: found.at, removed: old.length, lines: replaced(body, found.at) },
    fuzz: worse(fuzz, found.fuzz),
  };
}

/**
 * Where `pattern` is in `lines` from `from` on, at the first tolerance that matches anywhere:
 * with `unique`, several matches there are ambiguous (a looser tolerance only matches more).
 */
function findSequence(lines: readonly string[], pattern: readonly string[], from: number, unique: boolean): Found {
  for (const level of LEVELS) {
    const at: number[] = [];
    for (let i = from; i + pattern.length <= lines.length; i++) {
      if (pattern.every((p, k) => level.same(lines[i + k] as string, p))) {
        at.push(i);
        if (!unique) break;
      }
    }
    if (at.length === 1 || (at.length > 1 && !unique)) return { kind: "found", at: at[0] as number, fuzz: level.fuzz };
    if (at.length > 1) return { kind: "ambiguous", at };
  }
  return { kind: "none" };
}

/** An "*** End of File" hunk: its lines as the file's last. */
function atEnd(lines: readonly string[], pattern: readonly string[], from: number): Found {
  const start = lines.length - pattern.length;
  if (start < from) return { kind: "none" };
  for (const level of LEVELS) {
    if (pattern.every((p, k) => level.same(lines[start + k] as string, p))) {
      return { kind: "found", at: start, fuzz: level.fuzz };
    }
  }
  return { kind: "none" };
}

/** What a hunk placed at `at` leaves there: the file's own context lines (by index) and the added lines. */
function replaced(body: readonly HunkLine[], at: number): Array<number | string> {
  const out: Array<number | string> = [];
  let line = at;
  for (const l of body) {
    if (l.kind === "add") out.push(l.text);
    else if (l.kind === "context") out.push(line++);
    else line++;
  }
  return out;
}

/** A hunk's trailing empty context lines (blank lines before the next section) ask nothing of the file. */
function withoutTrailingBlank(lines: readonly HunkLine[]): HunkLine[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]?.kind === "context" && lines[end - 1]?.text.trim() === "") end--;
  // A hunk of nothing but blank context lines keeps them: they are all it has to be found by.
  return end === 0 ? [...lines] : lines.slice(0, end);
}

function worse(a: Fuzz, b: Fuzz): Fuzz {
  return LEVELS.findIndex((l) => l.fuzz === a) >= LEVELS.findIndex((l) => l.fuzz === b) ? a : b;
}

function firstAt(found: Found): number {
  return found.kind === "found" ? found.at : found.kind === "ambiguous" ? (found.at[0] as number) : -1;
}

function after(cursor: number): string {
  return cursor > 0 ? ` after line ${cursor}, where the hunk before it ended` : "";
}

function listLines(at: readonly number[]): string {
  const shown = at.slice(0, 5).map((i) => String(i + 1));
  return at.length > 5 ? `${shown.join(", ")}, …` : shown.join(", ");
}
