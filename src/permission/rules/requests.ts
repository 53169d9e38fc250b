import { lstatSync, readlinkSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { ACTIONS, type Action } from "../../contracts/requests.js";

/** The resource `*` of a path action: a path not known before the call runs. */
export const UNKNOWN_PATH = "*";

/** Actions whose resource is a file system path: their patterns are path globs (match.ts). */
export const PATH_ACTIONS: ReadonlySet<Action> = new Set<Action>(["read", "edit", "external_directory"]);

export function isAction(value: unknown): value is Action {
  return typeof value === "string" && (ACTIONS as readonly string[]).includes(value);
}

export function isPathAction(action: Action): boolean {
  return PATH_ACTIONS.has(action);
}

/** Thrown when a path cannot be named for a permission check (symlink loop, NUL byte, empty). */
export class PathResolutionError extends Error {
  override name = "PathResolutionError";
}

export interface ResolveOptions {
  /**
   * Follow a symlink in the last segment (default true): right for reading, writing and
   * creating, which open the link's target. An operation on the link itself (`rm link`,
   * `mv link x`) should pass false, so `link` names the link, not what it points to.
   */
  followLast?: boolean;
}

/** Linux's MAXSYMLINKS: past this many links in one resolution the kernel says ELOOP. */
const MAX_LINKS = 40;

/**
 * The absolute path a permission rule should judge for `path` given relative to `cwd`, as the
 * file tools use it: normalized first (`a/../b` is `b`, as `path.resolve` does), then resolved
 * through symlinks like the kernel would — the real path of the part that exists, then the
 * segments that do not exist yet appended. So a symlink inside the workspace that points
 * outside resolves to its real target, a dangling link resolves to the (missing) file a write
 * would create, and a new file under a symlinked folder resolves under the folder's target.
 * `~` is not expanded: a file tool opens `~/x` literally; the shell analysis expands it first.
 *
 * Throws PathResolutionError for an empty path, a NUL byte, or a symlink loop: callers must
 * treat that as fail-closed (the operation would fail anyway; it must not be allowed).
 */
export function resolveRequestPath(path: string, cwd: string, options: ResolveOptions = {}): string {
  check(path, cwd);
  return walk(resolve(absoluteCwd(cwd), path), options.followLast ?? true);
}

/**
 * Every path `path` may name, for callers that cannot know whether the string will be
 * normalized before it reaches the file system. `resolveRequestPath` normalizes `..` first
 * (what the file tools do); the kernel, given the raw string (what a shell does with
 * `echo x > link/../f`), applies `..` AFTER following `link`, so `link/../f` lands beside the
 * link's target. Both are returned when they differ; request both and the stricter answer wins.
 */
export function resolveRequestPaths(path: string, cwd: string, options: ResolveOptions = {}): string[] {
  check(path, cwd);
  const followLast = options.followLast ?? true;
  const normalized = walk(resolve(absoluteCwd(cwd), path), followLast);
  const raw = walk(isAbsolute(path) ? path : `${absoluteCwd(cwd)}/${path}`, followLast);
  return raw === normalized ? [normalized] : [normalized, raw];
}

/**
 * True when `path` is `folder` or lies below it. Both must be absolute; both are normalized
 * lexically, nothing is read from disk — pass paths from `resolveRequestPath` (and a resolved
 * folder) so symlinks are already settled. Segment-wise: `/work/a` is not inside `/work/ab`.
 */
export function isInside(path: string, folder: string): boolean {
  if (!isAbsolute(path) || !isAbsolute(folder)) {
    throw new TypeError(`isInside needs absolute paths, got ${JSON.stringify(path)} in ${JSON.stringify(folder)}`);
  }
  const p = resolve(path);
  const f = resolve(folder);
  if (p === f) return true;
  return p.startsWith(f.endsWith("/") ? f : `${f}/`);
}

function check(path: string, cwd: string): void {
  if (typeof path !== "string" || path === "") throw new PathResolutionError("empty path");
  if (path.includes("\0") || cwd.includes("\0")) throw new PathResolutionError(`path holds a NUL byte: ${path}`);
}

function absoluteCwd(cwd: string): string {
  return isAbsolute(cwd) ? cwd : resolve(cwd);
}

/**
 * Resolves an absolute path segment by segment the way the kernel does: `.` is skipped, `..`
 * goes to the parent of the real folder reached so far, a symlink is replaced by its target
 * (relative targets against the link's folder). A segment that does not exist (or cannot be
 * looked at) is appended as written.
 */
function walk(absolute: string, followLast: boolean): string {
  const pending = absolute.split("/").filter((s) => s !== "" && s !== ".");
  let current = "/";
  let links = 0;
  while (pending.length > 0) {
    const segment = pending.shift() as string;
    if (segment === "..") {
      current = parentOf(current);
      continue;
    }
    const next = current === "/" ? `/${segment}` : `${current}/${segment}`;
    if (!followLast && pending.length === 0) {
      current = next;
      continue;
    }
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      // ENOENT, ENOTDIR, EACCES: this segment is named as written. Later segments are still
      // looked at, so `missing/../link` follows `link` (as `mkdir -p` then a write would).
      current = next;
      continue;
    }
    if (!isLink) {
      current = next;
      continue;
    }
    links++;
    if (links > MAX_LINKS) throw new PathResolutionError(`too many symbolic links (a loop?) resolving ${absolute}`);
    const target = readlinkSync(next);
    if (target.startsWith("/")) current = "/";
    pending.unshift(...target.split("/").filter((s) => s !== "" && s !== "."));
  }
  return current;
}

function parentOf(path: string): string {
  if (path === "/") return "/";
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}
