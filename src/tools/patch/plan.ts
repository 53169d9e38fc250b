import { statSync } from "node:fs";
import type { CallDescription } from "../../contracts/requests.js";
import type { FileAccess, FileTracker } from "../../contracts/tools.js";
import { PathChangedError, readFileAt } from "../../util/safe-write.js";
import { describeError, displayPath, notFoundMessage, resolvePath, staleReason } from "../paths.js";
import { binaryContentReason } from "../read.js";
import type { CommitStep, Previous } from "./commit.js";
import { applyReplacements, type Fuzz, type HunkFailure, locateHunks } from "./locate.js";
import type { FileChange } from "./parse.js";
import { patchTarget } from "./targets.js";
import { addedLine, joinText, splitText } from "./text.js";

/** One file's change as it will be made: for the summary, the diff and the writer. */
export interface PlannedFile {
  letter: "A" | "M" | "D" | "R";
  /** The path as shown to the model (workspace-relative when inside), and the destination of a move. */
  shown: string;
  shownTo?: string;
  absolute: string;
  absoluteTo?: string;
  before: string;
  after: string;
  /** An added file or a move's destination that replaces a file already there. */
  replaces?: boolean;
  fuzz?: Fuzz;
  steps: CommitStep[];
}

export type Plan = { ok: true; files: PlannedFile[] } | { ok: false; message: string; why: string };

export interface PlanContext {
  cwd: string;
  /** Without it (a preview) nobody's reads are checked. */
  files?: FileTracker;
  /** What the gate judged: files are written only where its edit: requests say. */
  judged?: CallDescription;
  /** The editor's buffers (ACP fs): a file it reads is patched, and checked for staleness, as the buffer holds it. */
  access?: FileAccess;
  signal?: AbortSignal;
}

class Refusal extends Error {
  constructor(
    message: string,
    readonly why: string,
  ) {
    super(message);
  }
}

/**
 * The whole patch checked against the files as they are, before anything is written: every file
 * where it must be, read (and unchanged since) when it is replaced, changed or removed, and every
 * hunk placed. The first problem refuses all of it, saying which file and hunk, and why.
 */
export async function planPatch(changes: readonly FileChange[], ctx: PlanContext): Promise<Plan> {
  try {
    const files: PlannedFile[] = [];
    for (const change of changes) files.push(await planFile(change, ctx));
    sameFileTwice(changes, files);
    return { ok: true, files };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.message, why: error.why };
    throw error;
  }
}

/** Two sections that reach one file by different spellings (`a.ts`, `./a.ts`, a link) would depend on their order. */
function sameFileTwice(changes: readonly FileChange[], files: readonly PlannedFile[]): void {
  const seen = new Map<string, { index: number; path: string }>();
  for (const [index, file] of files.entries()) {
    const path = changes[index]?.path ?? file.shown;
    for (const step of file.steps) {
      const other = seen.get(step.target);
      if (other !== undefined && other.index !== index) {
        throw new Refusal(
          `Not applied: ${other.path} and ${path} are the same file (${file.shown}); put all of a file's hunks in one section.`,
          "one file twice",
        );
      }
      seen.set(step.target, { index, path });
    }
  }
}

async function planFile(change: FileChange, ctx: PlanContext): Promise<PlannedFile> {
  const source = await openFile(ctx, change.path, change.kind === "add" ? "write" : "change");
  if (change.kind === "add") {
    const steps: CommitStep[] = [{ op: "write", target: source.target, content: change.content, ...prior(source) }];
    return {
      letter: "A",
      ...names(source),
      before: source.text ?? "",
      after: change.content,
      steps,
      ...replacing(source),
    };
  }
  const existing = present(source, change.path, ctx);
  if (change.kind === "delete") {
    const steps: CommitStep[] = [{ op: "remove", target: source.target, previous: existing }];
    return { letter: "D", ...names(source), before: source.text ?? "", after: "", steps };
  }
  const { after, fuzz } = updated(source, change);
  const to = change.moveTo === undefined ? undefined : await openFile(ctx, change.moveTo, "write");
  if (!to || to.target === source.target) {
    const steps: CommitStep[] = [{ op: "write", target: source.target, content: after, previous: existing }];
    return { letter: "M", ...names(source), before: source.text ?? "", after, fuzz, steps };
  }
  const steps: CommitStep[] = [
    { op: "write", target: to.target, content: after, mode: existing.mode & 0o7777, ...prior(to) },
    { op: "remove", target: source.target, previous: existing },
  ];
  const moved = { shownTo: to.shown, absoluteTo: to.absolute, ...replacing(to) };
  return { letter: "R", ...names(source), ...moved, before: source.text ?? "", after, fuzz, steps };
}

interface OpenFile {
  path: string;
  shown: string;
  absolute: string;
  target: string;
  previous?: Previous;
  text?: string;
  /** The text is the editor's buffer, not the disk's bytes (`previous` stays the disk's, for a disk undo). */
  fromEditor?: boolean;
}

/** A file of the patch, read where it was approved: its bytes when it exists, refused when it must not be touched. */
async function openFile(ctx: PlanContext, path: string, intent: "write" | "change"): Promise<OpenFile> {
  const absolute = resolvePath(ctx.cwd, path);
  const shown = displayPath(ctx.cwd, absolute);
  const where = patchTarget(ctx.judged, ctx.cwd, path);
  if ("problem" in where) throw new Refusal(`Not applied: ${shown}: ${where.problem}.`, "not approved");
  if ("leadsTo" in where) {
    throw new Refusal(
      `Not applied: ${shown} changed after it was approved (it now leads to ${displayPath(ctx.cwd, where.leadsTo)}); read it again.`,
      "changed after approval",
    );
  }
  const file: OpenFile = { path, shown, absolute, target: where.target };
  let existing: ReturnType<typeof readFileAt>;
  try {
    existing = readFileAt(where.target);
  } catch (error) {
    if (error instanceof PathChangedError) {
      throw new Refusal(`Not applied: ${shown} changed after it was approved (a link was put in its way).`, "changed");
    }
    throw new Refusal(`Not applied: cannot read ${shown}: ${describeError(error)}.`, "failed");
  }
  if (existing.kind === "folder") throw new Refusal(`Not applied: ${shown} is a folder, not a file.`, "a folder");
  if (existing.kind === "other") throw new Refusal(`Not applied: ${shown} is not a regular file.`, "not a file");
  if (existing.kind === "file") {
    file.previous = { data: existing.data, mode: modeOf(where.target) };
    file.text = existing.data.toString("utf8");
    // The editor's buffer when it reads for bosun (a binary file is never asked for: it is refused below).
    if (ctx.access?.read && !binaryContentReason(absolute, existing.data)) {
      file.text = await bufferText(ctx.access.read, where.target, shown, ctx.signal);
      file.fromEditor = true;
    }
    // Replaced, changed or removed: only as the model last read it (an added file that exists is replaced, like write's).
    const stale = ctx.files
      ? staleReason(
          { cwd: ctx.cwd, files: ctx.files, access: ctx.access },
          absolute,
          file.fromEditor ? file.text : undefined,
        )
      : undefined;
    if (stale) throw new Refusal(`Not applied: ${stale}.`, "not read");
  } else if (intent === "change") {
    throw new Refusal(`Not applied: ${notFoundMessage(ctx.cwd, absolute)}`, "not found");
  }
  return file;
}

/** A file's text as the editor holds it; an editor that fails or does not answer in time refuses the whole patch. */
async function bufferText(read: NonNullable<FileAccess["read"]>, target: string, shown: string, signal?: AbortSignal) {
  try {
    return await read(target, signal ?? new AbortController().signal);
  } catch (error) {
    throw new Refusal(
      `Not applied: the editor did not give ${shown}'s text (${describeError(error)}); nothing was changed.`,
      "editor read failed",
    );
  }
}

function present(file: OpenFile, path: string, ctx: PlanContext): Previous {
  if (!file.previous)
    throw new Refusal(`Not applied: ${notFoundMessage(ctx.cwd, resolvePath(ctx.cwd, path))}`, "not found");
  return file.previous;
}

/** An update's new text: its hunks placed in the file's text, or which hunk did not apply. */
function updated(file: OpenFile, change: Extract<FileChange, { kind: "update" }>) {
  const raw = file.previous?.data ?? Buffer.alloc(0);
  const binary = binaryContentReason(file.absolute, raw);
  if (binary) throw new Refusal(`Not applied: ${file.shown} is a binary file (${binary}).`, "binary");
  const text = file.text ?? "";
  // Writing back text that did not decode cleanly would replace every bad byte with U+FFFD.
  if (!file.fromEditor && text.includes("\uFFFD") && !Buffer.from(text, "utf8").equals(raw)) {
    throw new Refusal(`Not applied: ${file.shown} is not valid UTF-8, and a patch would corrupt it.`, "not UTF-8");
  }
  const lines = splitText(text);
  const located = locateHunks(lines.plain, change.hunks);
  if (!located.ok) throw new Refusal(hunkMessage(file.shown, located.failure), `hunk ${located.failure.hunk}`);
  const after = applyReplacements(lines.raw, located.replacements, (l) => addedLine(l, lines));
  return { after: joinText(after, lines), fuzz: located.fuzz };
}

function hunkMessage(shown: string, failure: HunkFailure): string {
  const expected = failure.expected.map((line) => `  ${line}`).join("\n");
  return (
    `Not applied: hunk ${failure.hunk} of ${shown} did not apply: ${failure.reason}. Expected:\n${expected}\n` +
    "Nothing was changed. Read the file again and retry the whole patch with its lines as they are now."
  );
}

function names(file: OpenFile) {
  return { shown: file.shown, absolute: file.absolute };
}

function prior(file: OpenFile): { previous?: Previous } {
  return file.previous ? { previous: file.previous } : {};
}

function replacing(file: OpenFile): { replaces?: boolean } {
  return file.previous ? { replaces: true } : {};
}

function modeOf(target: string): number {
  try {
    return statSync(target).mode;
  } catch {
    return 0o644;
  }
}
