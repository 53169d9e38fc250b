import { readdirSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { ToolContext, ToolResult } from "../contracts/tools.js";
import { PathResolutionError, resolveRequestPath, UNKNOWN_PATH } from "../permission/rules/requests.js";
import { closest } from "../util/closest.js";

/** A tool's path argument as an absolute path: relative paths resolve against `cwd`; absolute ones stay as given. */
export function resolvePath(cwd: string, path: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** The failure result of a file tool: `fail(output, why)` gives a summary like "read src/a.ts (not found)". */
export function failure(tool: string, shown: string): (output: string, why: string) => ToolResult {
  return (output, why) => ({ output, isError: true, summary: `${tool} ${shown} (${why})` });
}

/** `absolute` relative to `cwd` when it lies inside it ("." for cwd itself), else absolute. */
export function displayPath(cwd: string, absolute: string): string {
  const rel = relative(resolve(cwd), absolute);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return absolute;
  return rel;
}

/** The message for a path that does not exist: the nearest missing part and up to three similar names beside it. */
export function notFoundMessage(cwd: string, absolute: string): string {
  const shown = displayPath(cwd, absolute);
  // Walk up to the nearest folder that exists; the first missing part is what to suggest for.
  let missing = absolute;
  let parent = dirname(missing);
  while (parent !== missing && !isDirectory(parent)) {
    missing = parent;
    parent = dirname(parent);
  }
  let names: string[] = [];
  try {
    names = readdirSync(parent);
  } catch {
    // An unreadable folder gives no suggestions.
  }
  const similar = closest(basename(missing), names, 3).map((name) => displayPath(cwd, resolve(parent, name)));
  const where =
    missing === absolute ? `${shown} does not exist` : `${shown} does not exist (no ${displayPath(cwd, missing)})`;
  return similar.length > 0 ? `${where}. Similar: ${similar.join(", ")}` : `${where}.`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A node error's code ("ENOENT", "EACCES", ...), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** A short, model-readable reason for a failed file operation. */
export function describeError(error: unknown): string {
  const code = errorCode(error);
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a folder";
  if (code === "ENOTDIR") return "a part of the path is not a folder";
  if (code === "ENOSPC") return "no space left on the device";
  if (code === "EROFS") return "the file system is read-only";
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why the agent may not overwrite `absolute` (never read, or changed since), with the path as the
 * model knows it; undefined when it may. The tracker knows absolute paths only.
 */
export function staleReason(
  ctx: Pick<ToolContext, "cwd" | "files" | "access">,
  absolute: string,
  /** The text as it is now where it is read (the editor's buffer); unset, the disk is compared. */
  current?: string,
): string | undefined {
  // Read through the editor, the buffer is the truth: the cheap check (no text yet) only asks "ever read?".
  const reason = ctx.files.staleReason(absolute, current ?? (ctx.access?.read ? null : undefined));
  return reason?.split(absolute).join(displayPath(ctx.cwd, absolute));
}

/** Where a file tool's write must land, or why it may not write at all. */
export type ApprovedTarget = { target: string } | { leadsTo: string } | { problem: string };

/**
 * Where a write of `path` must land: the `edit:` path the gate judged for this call, as long as
 * `path` still resolves there; when it now leads elsewhere (a link swapped in after the check),
 * where it leads. A tool run without a judged description (directly, not by the loop) writes
 * where the path resolves now. The write itself must still not follow a link (safe-write.ts).
 */
export function approvedTarget(ctx: ToolContext, path: string): ApprovedTarget {
  let now: string;
  try {
    now = resolveRequestPath(path, ctx.cwd);
  } catch (error) {
    // A link loop, or a link that changed while it was being followed: nothing to write to.
    const why = error instanceof PathResolutionError ? error.message : describeError(error);
    return { problem: `the path cannot be resolved (${why})` };
  }
  if (!ctx.judged) return { target: now };
  const edits = ctx.judged.requests.filter((r) => r.action === "edit").map((r) => r.resource);
  const judged = edits.length === 1 ? edits[0] : undefined;
  if (judged === undefined || judged === UNKNOWN_PATH) return { problem: "no one path of it was approved for editing" };
  return now === judged ? { target: judged } : { leadsTo: now };
}

/**
 * The refusal for a path that changed between its approval and the write: `verb` is "written"
 * or "edited"; `leadsTo`, where the path leads now, when known and not the approved place.
 */
export function changedAfterApproval(ctx: ToolContext, verb: string, shown: string, leadsTo?: string): string {
  const where = leadsTo ? `it now leads to ${displayPath(ctx.cwd, leadsTo)}` : "a link was put in its way";
  return `Not ${verb}: ${shown} changed after it was approved (${where}); read it again.`;
}
