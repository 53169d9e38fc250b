/**
 * Seat `context.instructions`: which instruction files the model sees, in which order, and which
 * were skipped. AGENTS.md from the global config dir, then from the repository root down to the
 * working directory (nearest last), CLAUDE.md where no AGENTS.md sits beside it, then config
 * `instructions.files` (paths, globs, URLs); a subfolder's AGENTS.md once the model reads there.
 * Every file passes the run's read check first (permission/gate/read-check.ts), as a `read` of it
 * would: the repository's files (its AGENTS.md, CLAUDE.md, nested ones, its config's
 * instructions.files) only when the rules allow them outright; the global AGENTS.md and the
 * files your own config names also when the rules would ask, never when they deny. A link to a
 * denied file, or out of the workspace, is skipped and listed with why.
 * Nothing here throws for a bad file: it is skipped and listed.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Decision, Reason } from "../contracts/decisions.js";
import {
  fileErrorReason,
  type ReadCheck,
  type ReadOrigin,
  type ReadQuery,
  readChecked,
} from "../permission/gate/read-check.js";
import { entryExists } from "../util/fs.js";
import { IMPORT_DEPTH, IMPORT_TOTAL_BYTES, importPaths, resolveImport } from "./instruction-imports.js";
import { fetchInstruction, MAX_INSTRUCTION_BYTES } from "./instructions-fetch.js";

export { MAX_INSTRUCTION_BYTES } from "./instructions-fetch.js";

export const SEAT = "context.instructions";

export interface InstructionFile {
  path: string;
  /** mcp: a connected MCP server's own instructions (its path names the server). */
  origin: "global" | "project" | "config" | "url" | "nested" | "mcp" | "import";
  content: string;
  /** For an import: the file whose `@path` brought it in. */
  importedBy?: string;
  /** for URLs: "fetched" | "cached copy (fetch failed: …)" */
  note?: string;
  /** The config file whose instructions.files named it. */
  source?: string;
}

export interface InstructionSkip {
  path: string;
  reason: string;
  /** The config file that named it, when config did. */
  source?: string;
}

export interface Instructions {
  files: InstructionFile[];
  skipped: InstructionSkip[];
  /** Real paths of the files loaded (URLs as written) and of the folders already looked in. */
  loaded: Set<string>;
  /** The folders looked in for AGENTS.md / CLAUDE.md, in order. */
  searched: string[];
  /** Whether CLAUDE.md was read as a fallback. */
  claudeMd: boolean;
}

export interface ExtraInstruction {
  value: string;
  baseDir: string;
  source: string;
  /** Whose config names it: the repository's (its bosun.json) or the user's own. */
  owner: ReadOrigin;
}

export interface NestedState {
  repoRoot: string;
  claudeMd: boolean;
  loaded: Set<string>;
  /** Resolves a relative readPath; the repository root when absent. */
  cwd?: string;
  /** Where skipped nested files are listed, when given. */
  skipped?: InstructionSkip[];
  /** The run's read check: a subfolder's file is the repository's, read only when the rules allow it. */
  check: ReadCheck;
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

export async function loadInstructions(options: {
  globalDir: string;
  repoRoot: string;
  cwd: string;
  claudeMd: boolean;
  extra: ExtraInstruction[];
  cacheDir: string;
  /** Time limit of fetching one URL (config instructions.fetch_timeout_ms). */
  fetchTimeoutMs: number;
  home?: string;
  /** The run's read check (permission/gate/read-check.ts): every file passes it before it is read. */
  check: ReadCheck;
}): Promise<Instructions> {
  const timeout = options.fetchTimeoutMs;
  // URLs are fetched side by side from the start; their results are taken in config order below.
  // A URL is a web request: its host passes the web rules first (a repository's outright).
  const refusedUrls = new Map<number, string>();
  const fetches = options.extra.map((entry, i) => {
    if (!URL_LIKE.test(entry.value)) return undefined;
    // A check that cannot judge web requests fetches nothing: no route into the context is unjudged.
    const allowed = options.check.web?.(entry.value, { origin: entry.owner }) ?? {
      ok: false,
      reason: "web requests are not judged here",
    };
    if (!allowed.ok) {
      refusedUrls.set(i, allowed.reason);
      return undefined;
    }
    return fetchInstruction(entry.value, options.cacheDir, timeout);
  });
  const result: Instructions = { files: [], skipped: [], loaded: new Set(), searched: [], claudeMd: options.claudeMd };
  const collect = collector(result.files, result.skipped, result.loaded, options.check, options.home);

  // The global folder is the user's own; the walk from the repository root is the repository's.
  const globalDir = resolve(options.globalDir);
  const folders = [globalDir, ...folderChain(options.repoRoot, options.cwd)];
  folders.forEach((folder, i) => {
    const query: ReadQuery = i === 0 ? { origin: "user", own: globalDir } : { origin: "repository" };
    if (lookIn(folder, options.claudeMd, i === 0 ? "global" : "project", query, collect, result.loaded)) {
      result.searched.push(folder);
    }
  });

  const home = options.home ?? homedir();
  let globber: typeof import("tinyglobby") | undefined;
  for (const [i, entry] of options.extra.entries()) {
    const refused = refusedUrls.get(i);
    if (refused !== undefined) {
      result.skipped.push({ path: entry.value, reason: `not fetched: ${refused}`, source: entry.source });
      continue;
    }
    const fetching = fetches[i];
    if (fetching) {
      if (result.loaded.has(entry.value)) {
        result.skipped.push({ path: entry.value, reason: "already included", source: entry.source });
        continue;
      }
      const fetched = await fetching;
      if (!fetched.ok) result.skipped.push({ path: entry.value, reason: fetched.reason, source: entry.source });
      else if (!fetched.content.trim())
        result.skipped.push({ path: entry.value, reason: "empty", source: entry.source });
      else {
        result.loaded.add(entry.value);
        result.files.push({
          path: entry.value,
          origin: "url",
          content: stripBom(fetched.content),
          note: fetched.note,
          source: entry.source,
        });
      }
      continue;
    }
    const target = resolve(entry.baseDir, expandHome(entry.value, home));
    const query: ReadQuery = { origin: entry.owner };
    globber ??= await import("tinyglobby");
    if (entryExists(target) || !globber.isDynamicPattern(entry.value)) {
      collect(target, "config", query, entry.source);
      continue;
    }
    const matches = await expandGlob(globber, target);
    if (typeof matches === "string") result.skipped.push({ path: target, reason: matches, source: entry.source });
    else if (matches.length === 0) {
      result.skipped.push({ path: target, reason: "no file matches the glob", source: entry.source });
    } else for (const match of matches) collect(match, "config", query, entry.source);
  }
  return result;
}

/**
 * Instruction files to add when the model reads `readPath`: the AGENTS.md (or CLAUDE.md) of each
 * folder inside the repository from the root down to the file's folder that was not looked in
 * yet, outermost first. Marks them in `state.loaded`, so each is added once. Outside the
 * repository: nothing.
 */
export function nestedInstructions(readPath: string, state: NestedState): InstructionFile[] {
  const target = resolve(state.cwd ?? state.repoRoot, readPath);
  let root = resolve(state.repoRoot);
  let folder = dirname(target);
  if (!inside(root, folder)) {
    root = realOr(root);
    folder = realOr(folder);
    if (!inside(root, folder)) return [];
  }
  const files: InstructionFile[] = [];
  const collect = collector(files, state.skipped ?? [], state.loaded, state.check);
  for (const at of folderChain(root, folder)) {
    lookIn(at, state.claudeMd, "nested", { origin: "repository" }, collect, state.loaded);
  }
  return files;
}

/** The text put in the system prompt: each file as a block that names its path, in order. Empty string when none. */
export function renderInstructions(files: readonly InstructionFile[]): string {
  return files
    .map((file) => `Instructions from ${file.path}:\n${file.content.replace(/^\s*\n/, "").trimEnd()}`)
    .join("\n\n");
}

/** The decision to record for the instructions loaded at the start of a session. */
export function instructionsDecision(
  result: Instructions,
  options: { claudeMdFromConfig?: string; filesSource?: string },
): Decision<string[]> {
  const reasons: Reason[] = [];
  if (result.searched.length > 0) {
    const names = result.claudeMd ? "AGENTS.md (else CLAUDE.md)" : "AGENTS.md";
    reasons.push({ rule: "searched", detail: `${names} in ${result.searched.join(", ")}` });
  }
  const claudeOff = !result.claudeMd && options.claudeMdFromConfig !== undefined;
  if (!result.claudeMd) {
    reasons.push({
      rule: "claude_md off",
      detail: "CLAUDE.md is not read",
      ...(options.claudeMdFromConfig ? { source: options.claudeMdFromConfig, key: "instructions.claude_md" } : {}),
    });
  }
  reasons.push(...fileReasons(result.files), ...skipReasons(result.skipped));
  const fromConfig = result.files.some((file) => file.origin === "config" || file.origin === "url");
  const counts = countBy(result.files.map((file) => file.origin));
  const summary = `${result.files.length} loaded${counts ? ` (${counts})` : ""}, ${result.skipped.length} skipped`;
  const source = fromConfig ? options.filesSource : claudeOff ? options.claudeMdFromConfig : undefined;
  reasons.push({
    rule: fromConfig ? "instructions.files" : claudeOff ? "instructions.claude_md" : "default",
    detail: summary,
    ...(source ? { source, key: fromConfig ? "instructions.files" : "instructions.claude_md" } : {}),
    decisive: true,
  });
  return {
    seat: SEAT,
    holder: fromConfig || claudeOff ? "config" : "code",
    answer: result.files.map((file) => file.path),
    reasons,
  };
}

/** The decision to record when reading `readPath` added nested instruction files (code holds it). */
export function nestedDecision(
  files: readonly InstructionFile[],
  readPath: string,
  skipped: readonly InstructionSkip[] = [],
): Decision<string[]> {
  return {
    seat: SEAT,
    holder: "code",
    answer: files.map((file) => file.path),
    reasons: [
      ...fileReasons(files),
      ...skipReasons(skipped),
      {
        rule: "nested",
        detail: `${files.length} added on reading ${readPath}, ${skipped.length} skipped`,
        decisive: true,
      },
    ],
    subject: { path: readPath },
  };
}

function fileReasons(files: readonly InstructionFile[]): Reason[] {
  return files.map((file) => ({
    rule: "loaded",
    detail: `${file.path}: ${file.origin}${file.importedBy ? ` by ${file.importedBy}` : ""}, ${file.content.length} chars${file.note ? `, ${file.note}` : ""}`,
    ...(file.source ? { source: file.source, key: "instructions.files" } : { source: file.path }),
  }));
}

function skipReasons(skipped: readonly InstructionSkip[]): Reason[] {
  return skipped.map((skip) => ({
    rule: "skipped",
    detail: `${skip.path}: ${skip.reason}`,
    ...(skip.source ? { source: skip.source, key: "instructions.files" } : {}),
  }));
}

function countBy(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, n]) => `${value} ${n}`).join(", ");
}

type Collect = (path: string, origin: InstructionFile["origin"], query: ReadQuery, source?: string) => void;

/**
 * Reads one file into `files`, or lists it in `skipped`; a file already loaded (same real path) is
 * not added again. Each file's `@path` imports follow it (see `importsOf`).
 */
function collector(
  files: InstructionFile[],
  skipped: InstructionSkip[],
  loaded: Set<string>,
  check: ReadCheck,
  home?: string,
): Collect {
  // One budget for every import the session reads: a chain of imports cannot fill the prompt.
  const budget = { bytes: IMPORT_TOTAL_BYTES };
  return (path, origin, query, source) => {
    const read = readInstructionFile(path, query, check);
    const from = source ? { source } : {};
    if (!read.ok) {
      skipped.push({ path, reason: read.reason, ...from });
      return;
    }
    if (loaded.has(read.real)) {
      // The implicit walk meeting the same file twice (a symlink, global dir = repository) is not news.
      if (source) skipped.push({ path, reason: "already included", ...from });
      return;
    }
    loaded.add(read.real);
    const file: InstructionFile = { path, origin, content: read.content, ...from };
    files.push(file);
    importsOf(file, { query, check, files, skipped, loaded, budget, chain: [read.real], home });
  };
}

interface ImportWalk {
  /** The importer's read query: an import is read as its importer is (a repository's stays the repository's). */
  query: ReadQuery;
  check: ReadCheck;
  files: InstructionFile[];
  skipped: InstructionSkip[];
  loaded: Set<string>;
  budget: { bytes: number };
  /** Real paths from the top file to this one: a file met again on its own chain is a cycle. */
  chain: string[];
  /** Where `@~/` points; the user's home folder when absent. */
  home: string | undefined;
}

/**
 * The `@path` imports of `importer`, each read through the same check as any instruction file (a
 * link out of the repository, a protected file, bosun's data folder are refused there), added
 * after it, depth first, at most IMPORT_DEPTH deep. A cycle or a file already included is listed,
 * not read again.
 */
function importsOf(importer: InstructionFile, walk: ImportWalk): void {
  for (const spec of importPaths(importer.content)) {
    const path = resolveImport(spec, importer.path, walk.home);
    const skip = (reason: string) =>
      walk.skipped.push({ path, reason: `@${spec} imported by ${importer.path}: ${reason}` });
    if (walk.chain.length > IMPORT_DEPTH) {
      skip(`imports are followed ${IMPORT_DEPTH} deep`);
      continue;
    }
    const read = readInstructionFile(path, walk.query, walk.check);
    if (!read.ok) {
      skip(read.reason);
      continue;
    }
    if (walk.chain.includes(read.real)) {
      skip("a cycle: it imports itself through this chain");
      continue;
    }
    if (walk.loaded.has(read.real)) {
      skip("already included");
      continue;
    }
    const size = Buffer.byteLength(read.content);
    if (size > walk.budget.bytes) {
      skip(`the imports together would pass ${IMPORT_TOTAL_BYTES / 1024} KiB`);
      continue;
    }
    walk.budget.bytes -= size;
    walk.loaded.add(read.real);
    const file: InstructionFile = { path, origin: "import", content: read.content, importedBy: importer.path };
    walk.files.push(file);
    importsOf(file, { ...walk, chain: [...walk.chain, read.real] });
  }
}

/**
 * Looks in one folder: its AGENTS.md, or CLAUDE.md when no AGENTS.md sits beside it (and claudeMd
 * is on). An AGENTS.md that is present but unreadable is listed, and CLAUDE.md is not read in its
 * place. Returns false when the folder was already looked in (or does not exist).
 */
function lookIn(
  folder: string,
  claudeMd: boolean,
  origin: InstructionFile["origin"],
  query: ReadQuery,
  collect: Collect,
  loaded: Set<string>,
): boolean {
  if (!entryExists(folder)) return false;
  const key = realOr(folder);
  if (loaded.has(key)) return false;
  loaded.add(key);
  const agents = join(folder, "AGENTS.md");
  if (entryExists(agents)) collect(agents, origin, query);
  else if (claudeMd && entryExists(join(folder, "CLAUDE.md"))) collect(join(folder, "CLAUDE.md"), origin, query);
  return true;
}

type Read = { ok: true; content: string; real: string } | { ok: false; reason: string };

/** Checked first, then read from the very file the check judged. */
function readInstructionFile(path: string, query: ReadQuery, check: ReadCheck): Read {
  const verdict = check(path, query);
  if (!verdict.ok) return { ok: false, reason: verdict.reason };
  const read = readChecked(verdict, MAX_INSTRUCTION_BYTES);
  if ("refused" in read) return { ok: false, reason: read.refused };
  if ("tooBig" in read) return { ok: false, reason: `over ${MAX_INSTRUCTION_BYTES / 1024} KiB (${read.tooBig} bytes)` };
  const content = stripBom(read.text);
  if (content.includes("\0")) return { ok: false, reason: "not text" };
  if (!content.trim()) return { ok: false, reason: "empty" };
  return { ok: true, content, real: verdict.real };
}

/** Why a file could not be read, in words (the error code kept where it helps). */
export const errnoReason = fileErrorReason;

/** The folders from the repository root down to cwd, outermost first; cwd alone when it is outside. */
export function folderChain(repoRoot: string, cwd: string): string[] {
  let root = resolve(repoRoot);
  let here = resolve(cwd);
  if (!inside(root, here)) {
    root = realOr(root);
    here = realOr(here);
    if (!inside(root, here)) return [resolve(cwd)];
  }
  const chain = [root];
  let at = root;
  for (const part of relative(root, here).split(sep).filter(Boolean)) {
    at = join(at, part);
    chain.push(at);
  }
  return chain;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function expandHome(value: string, home: string): string {
  if (value === "~") return home;
  if (value.startsWith("~/")) return join(home, value.slice(2));
  return value;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Expands an absolute glob from its static folder, sorted; a string says why it could not. */
async function expandGlob(globber: typeof import("tinyglobby"), pattern: string): Promise<string[] | string> {
  const parts = pattern.split("/");
  const first = parts.findIndex((part) => globber.isDynamicPattern(part));
  const base = parts.slice(0, first).join("/") || "/";
  const rest = parts.slice(first).join("/");
  try {
    const found = await globber.glob(rest, { cwd: base, absolute: true, onlyFiles: true, expandDirectories: false });
    return found.map((path) => resolve(path)).sort();
  } catch (error) {
    return `glob failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
