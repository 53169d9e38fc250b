import { existsSync } from "node:fs";
import { z } from "zod";
import type { Tool } from "../contracts/tools.js";
import { pathRequests } from "../permission/rules/call-requests.js";
import { PathChangedError, readFileAt } from "../util/safe-write.js";
import { seenText, textThrough, viaMetadata, writeThrough } from "./access.js";
import { diffHunks } from "./diff-hunks.js";
import {
  approvedTarget,
  changedAfterApproval,
  describeError,
  displayPath,
  failure,
  notFoundMessage,
  resolvePath,
  staleReason,
} from "./paths.js";
import { currentText, diffPreview } from "./preview.js";
import { binaryContentReason } from "./read.js";

const schema = z.strictObject({
  path: z.string().describe("File to edit"),
  old_string: z.string().describe("Exact text to replace, without read's line-number prefixes"),
  new_string: z.string().describe("Replacement text"),
  replace_all: z.boolean().optional().describe("Replace every match (default: old_string must match once)"),
});

export type EditInput = z.infer<typeof schema>;

/** How old_string was found: exactly, or after forgiving line endings, then trailing whitespace, then typography. */
export type MatchTier = "exact" | "line-endings" | "trailing-whitespace" | "typography";

/** The tolerant tiers in the order they are tried; each forgives what the ones before it did, and more. */
const TOLERANT_TIERS: readonly Exclude<MatchTier, "exact">[] = ["line-endings", "trailing-whitespace", "typography"];

const TIER_NOTES: Record<MatchTier, string> = {
  exact: "",
  "line-endings": "Matched ignoring line endings (CRLF/LF).",
  "trailing-whitespace": "Matched ignoring line endings and trailing whitespace.",
  typography: "Matched ignoring line endings, trailing whitespace and typographic quotes/dashes.",
};

const TIER_NAMES: Record<Exclude<MatchTier, "exact">, string> = {
  "line-endings": "ignoring line endings",
  "trailing-whitespace": "ignoring trailing whitespace",
  typography: "ignoring typographic quotes and dashes",
};

/** What differs between places that only a tolerant tier matches alike. */
const TIER_DIFFERENCES: Record<Exclude<MatchTier, "exact">, string> = {
  "line-endings": "line endings",
  "trailing-whitespace": "trailing whitespace",
  typography: "quotes, dashes and whitespace",
};

/** Diff lines shown in the result before the rest is summarised. */
const MAX_DIFF_LINES = 60;

export const editTool: Tool<EditInput> = {
  name: "edit",
  description:
    "Replace old_string with new_string in a file you have read. old_string must match exactly one place unless replace_all.",
  schema,
  kind: "edit",
  requests: async (input, where) => pathRequests("edit", input.path, where),
  async preview(input, where, through) {
    const { absolute, text } = await currentText(where.cwd, input.path, through);
    // The exact match when there is one; else the change on its own (execute applies the tolerant tiers).
    const after = text.includes(input.old_string)
      ? input.replace_all
        ? text.split(input.old_string).join(input.new_string)
        : text.replace(input.old_string, () => input.new_string)
      : undefined;
    return after === undefined
      ? diffPreview(where.cwd, absolute, input.old_string, input.new_string)
      : diffPreview(where.cwd, absolute, text, after);
  },
  unready(input, ctx) {
    const absolute = resolvePath(ctx.cwd, input.path);
    return existsSync(absolute) ? staleReason(ctx, absolute) : notFoundMessage(ctx.cwd, absolute);
  },
  async execute(input, ctx) {
    const absolute = resolvePath(ctx.cwd, input.path);
    const shown = displayPath(ctx.cwd, absolute);
    const fail = failure("edit", shown);
    if (ctx.signal.aborted) return fail(`Editing ${shown} was cancelled.`, "cancelled");
    if (input.old_string === "") {
      return fail("old_string is empty. To create a file or replace it whole, use write.", "empty old_string");
    }
    if (input.old_string === input.new_string) {
      return fail("old_string and new_string are the same; nothing would change.", "no change");
    }

    const changed = (leadsTo: string | undefined) =>
      fail(changedAfterApproval(ctx, "edited", shown, leadsTo), "changed after approval");
    // Read and written where the gate judged, never where a link swapped in since would lead.
    const where = approvedTarget(ctx, input.path);
    if ("problem" in where) return fail(`Not edited: ${where.problem}.`, "not approved");
    if ("leadsTo" in where) return changed(where.leadsTo);
    const target = where.target;

    // A file with a binary name is not read at all (it may be huge); only whether it exists is asked.
    const byName = binaryContentReason(absolute, undefined);
    if (byName && existsSync(target)) return fail(`Cannot edit ${shown}: it is a binary file (${byName}).`, "binary");
    let before: string;
    try {
      const existing = readFileAt(target);
      if (existing.kind === "none") return fail(notFoundMessage(ctx.cwd, absolute), "not found");
      if (existing.kind === "folder") return fail(`${shown} is a folder, not a file.`, "a folder");
      if (existing.kind === "other") return fail(`${shown} is not a regular file.`, "not a file");
      const raw = existing.data;
      const binary = binaryContentReason(absolute, raw);
      if (binary) return fail(`Cannot edit ${shown}: it is a binary file (${binary}).`, "binary");
      before = raw.toString("utf8");
      // Writing back text that did not decode cleanly would replace every bad byte with U+FFFD.
      if (before.includes("\uFFFD") && !Buffer.from(before, "utf8").equals(raw)) {
        return fail(
          `Cannot edit ${shown}: it is not valid UTF-8, and an edit would corrupt it. Use shell instead.`,
          "not UTF-8",
        );
      }
      // The editor's buffer when it reads for bosun: the edit applies to, and is checked against, what the person sees.
      before = await textThrough(ctx, target, before);
      const stale = staleReason(ctx, absolute, ctx.access?.read ? before : undefined);
      if (stale) return fail(`Not edited: ${stale}.`, "not read");
    } catch (error) {
      if (error instanceof PathChangedError) return changed(error.leadsTo === target ? undefined : error.leadsTo);
      return fail(`Cannot edit ${shown}: ${describeError(error)}`, "failed");
    }

    const found = findMatches(before, input.old_string, input.replace_all === true);
    if (found.kind === "ambiguous") {
      return fail(
        `old_string matches ${found.count} places in ${shown}. Add surrounding lines to make it unique, or set replace_all to replace every one.`,
        `${found.count} matches`,
      );
    }
    if (found.kind === "partial") {
      const how = found.tier === "exact" ? "exactly" : TIER_NAMES[found.tier];
      return fail(
        `Not edited: old_string matches ${places(found.count)} in ${shown} ${how} but ${places(found.widerCount)} ${TIER_NAMES[found.wider]}, ` +
          `so replace_all would miss ${found.widerCount - found.count}. ` +
          `Make those places the same first (their ${TIER_DIFFERENCES[found.wider]}), or edit them one by one.`,
        `${found.count} of ${found.widerCount} matches`,
      );
    }
    if (found.kind === "none") {
      let message = `old_string was not found in ${shown}. Read the file again and copy the text exactly.`;
      if (found.several) {
        message += ` (${capitalize(TIER_NAMES[found.several.tier])}, it matches ${found.several.count} places: add surrounding lines to make it unique.)`;
      }
      if (/^ *\d+\t/m.test(input.old_string)) message += " Leave out read's line-number prefixes.";
      return fail(message, "no match");
    }

    const replacement = withLineEndings(input.new_string, lineEnding(before));
    let after = before;
    for (const span of [...found.spans].reverse()) {
      after = after.slice(0, span.start) + replacement + after.slice(span.end);
    }

    if (ctx.signal.aborted) return fail(`Editing ${shown} was cancelled.`, "cancelled");
    try {
      await writeThrough(ctx, target, after);
    } catch (error) {
      if (error instanceof PathChangedError) return changed(error.leadsTo === target ? undefined : error.leadsTo);
      // Written whole or not at all (safe-write.ts): a full disk leaves the file as it was.
      return fail(`Cannot write ${shown}: ${describeError(error)}; ${shown} is as it was.`, "failed");
    }
    ctx.files.seen(absolute, seenText(ctx, after));

    const diff = renderDiff(shown, before, after);
    const replacements = found.spans.length;
    const head = `Edited ${shown}: ${replacements} ${replacements === 1 ? "replacement" : "replacements"} (+${diff.added} -${diff.removed}).`;
    const note = TIER_NOTES[found.tier];
    return {
      output: [note ? `${head} ${note}` : head, ...diff.lines].join("\n"),
      summary: `edit ${shown} (+${diff.added} -${diff.removed})`,
      detail: diff.lines.join("\n"),
      metadata: {
        path: absolute,
        tier: found.tier,
        replacements,
        added: diff.added,
        removed: diff.removed,
        ...viaMetadata(ctx),
      },
    };
  },
};

interface Span {
  start: number;
  end: number;
}

type Found =
  | { kind: "found"; tier: MatchTier; spans: Span[] }
  | { kind: "ambiguous"; count: number }
  /** With `all`: `tier` matches `count` places, but the more forgiving `wider` matches more, which replace_all would miss. */
  | { kind: "partial"; tier: MatchTier; count: number; wider: Exclude<MatchTier, "exact">; widerCount: number }
  | { kind: "none"; several?: { tier: Exclude<MatchTier, "exact">; count: number } };

/**
 * Where `needle` is in `text`: exactly first, then through each tolerant tier in turn. A tier
 * that matches one place wins; one that matches several without `all` stops the search, since
 * later tiers forgive more and can only match more.
 *
 * With `all`, the first tier that matches wins only if no later tier matches more places: replacing
 * what it matched would silently leave the others, so that is refused ("partial") rather than guessed at.
 */
export function findMatches(text: string, needle: string, all: boolean): Found {
  const exact = occurrences(text, needle);
  const exactSpans = exact.map((start) => ({ start, end: start + needle.length }));
  if (exact.length > 1 && !all) return { kind: "ambiguous", count: exact.length };
  if (exact.length === 1 && !all) return { kind: "found", tier: "exact", spans: exactSpans };

  const tolerant = TOLERANT_TIERS.map((tier, level) => ({ tier, ...tolerantMatches(text, needle, level + 1) }));
  if (exact.length > 0) {
    const more = morePlaces(exact.length, tolerant);
    if (more) return { kind: "partial", tier: "exact", count: exact.length, ...more };
    return { kind: "found", tier: "exact", spans: exactSpans };
  }

  for (const [index, { tier, hay, pin, starts }] of tolerant.entries()) {
    if (starts.length === 0) continue;
    if (starts.length > 1 && !all) return { kind: "none", several: { tier, count: starts.length } };
    const more = all ? morePlaces(starts.length, tolerant.slice(index + 1)) : undefined;
    if (more) return { kind: "partial", tier, count: starts.length, ...more };
    const spans = starts.map((s) => ({ start: hay.start[s] ?? 0, end: hay.end[s + pin.length - 1] ?? text.length }));
    return { kind: "found", tier, spans };
  }
  return { kind: "none" };
}

/** The first of `later` tiers that matches the most places, if that is more than `count`. */
function morePlaces(
  count: number,
  later: { tier: Exclude<MatchTier, "exact">; starts: number[] }[],
): { wider: Exclude<MatchTier, "exact">; widerCount: number } | undefined {
  let best: { wider: Exclude<MatchTier, "exact">; widerCount: number } | undefined;
  for (const { tier, starts } of later) {
    if (starts.length > (best?.widerCount ?? count)) best = { wider: tier, widerCount: starts.length };
  }
  return best;
}

/** Where `needle` is in `text` when both are normalized to `level`; nowhere when the needle normalizes to nothing. */
function tolerantMatches(
  text: string,
  needle: string,
  level: number,
): { hay: Normalized; pin: string; starts: number[] } {
  const pin = normalize(needle, level).text;
  if (pin === "") return { hay: { text: "", start: [], end: [] }, pin, starts: [] };
  const hay = normalize(text, level);
  return { hay, pin, starts: occurrences(hay.text, pin) };
}

function places(count: number): string {
  return `${count} ${count === 1 ? "place" : "places"}`;
}

/** Start offsets of the non-overlapping occurrences of `needle` in `text`. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

const TYPOGRAPHY: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u201F": '"',
  "\u2013": "-",
  "\u2014": "-",
};

interface Normalized {
  text: string;
  /** For each character of `text`, where its source starts in the original. */
  start: number[];
  /** For each character of `text`, where its source ends (exclusive) in the original. */
  end: number[];
}

/**
 * `text` with, cumulatively by level: 1 CRLF as LF; 2 spaces and tabs before a line end (or the
 * end) removed; 3 typographic quotes and dashes as ASCII. Keeps a map back to the original.
 */
function normalize(text: string, level: number): Normalized {
  const out: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const lineEndAt = (j: number) => j === text.length || text[j] === "\n" || (text[j] === "\r" && text[j + 1] === "\n");
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "\r" && text[i + 1] === "\n") {
      out.push("\n");
      start.push(i);
      end.push(i + 2);
      i += 2;
      continue;
    }
    if (level >= 2 && (c === " " || c === "\t")) {
      let j = i;
      while (j < text.length && (text[j] === " " || text[j] === "\t")) j++;
      if (lineEndAt(j)) {
        i = j;
        continue;
      }
    }
    out.push(level >= 3 ? (TYPOGRAPHY[c] ?? c) : c);
    start.push(i);
    end.push(i + 1);
    i++;
  }
  return { text: out.join(""), start, end };
}

/** The file's dominant line ending, or undefined when it has no line breaks. */
function lineEnding(text: string): "\r\n" | "\n" | undefined {
  const all = text.split("\n").length - 1;
  if (all === 0) return undefined;
  const crlf = text.split("\r\n").length - 1;
  return crlf > all - crlf ? "\r\n" : "\n";
}

function withLineEndings(text: string, eol: "\r\n" | "\n" | undefined): string {
  if (eol === undefined) return text;
  const lf = text.replace(/\r\n/g, "\n");
  return eol === "\n" ? lf : lf.replace(/\n/g, "\r\n");
}

/** A unified diff of the change (line endings shown as LF), at most MAX_DIFF_LINES lines, and the line counts. */
function renderDiff(name: string, before: string, after: string): { lines: string[]; added: number; removed: number } {
  const { lines, added, removed } = diffHunks(name, name, before, after);
  if (lines.length > MAX_DIFF_LINES) {
    const more = lines.length - MAX_DIFF_LINES;
    lines.length = MAX_DIFF_LINES;
    lines.push(`… ${more} more diff lines`);
  }
  return { lines, added, removed };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
