import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The nearest folder at or above `start` that holds `.git` (a folder, or a file for worktrees). */
export function findRepoRoot(start: string): string | undefined {
  let current = resolve(start);
  for (;;) {
    if (existsSync(join(current, ".git"))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Folders from `top` down to `bottom`, both included; `bottom` must lie inside `top`. */
export function foldersBetween(top: string, bottom: string): string[] {
  const folders: string[] = [];
  let current = resolve(bottom);
  const stop = resolve(top);
  for (;;) {
    folders.unshift(current);
    if (current === stop) return folders;
    const parent = dirname(current);
    if (parent === current) return folders;
    current = parent;
  }
}

/**
 * The workspace bosun works in from `cwd`: the git repository's root, else `cwd` itself, resolved
 * through symlinks (permission rules and requests compare resolved paths). Saved approvals are
 * kept per workspace.
 */
export function workspaceOf(cwd: string): string {
  return realpathSync(findRepoRoot(cwd) ?? cwd);
}
