import { type Dirent, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

/** At most this many candidates are offered; the rest are left to more typing. */
const MAX_CANDIDATES = 50;

/**
 * Completion of an `@path` being typed: the entries of its folder (relative to `cwd`) whose
 * names start with what follows the last `/`, folders ending in `/`, sorted. Hidden entries are
 * offered only once a `.` is typed, and `node_modules` and `.git` never.
 */
export function completePath(cwd: string, partial: string): string[] {
  const slash = partial.lastIndexOf("/");
  const folder = slash === -1 ? "" : partial.slice(0, slash + 1);
  const start = partial.slice(slash + 1);
  let entries: Dirent[];
  try {
    entries = readdirSync(resolve(cwd, folder || "."), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.name.startsWith(start))
    .filter((entry) => start.startsWith(".") || !entry.name.startsWith("."))
    .filter((entry) => entry.name !== "node_modules" && entry.name !== ".git")
    .map((entry) => `${folder}${entry.name}${isFolder(cwd, folder, entry) ? "/" : ""}`)
    .sort()
    .slice(0, MAX_CANDIDATES);
}

function isFolder(cwd: string, folder: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(resolve(cwd, join(folder, entry.name))).isDirectory();
  } catch {
    return false;
  }
}

/** The longest start all candidates share: what Tab can fill in when several match. */
export function commonStart(candidates: readonly string[]): string {
  if (candidates.length === 0) return "";
  let prefix = candidates[0] as string;
  for (const candidate of candidates) {
    while (!candidate.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}
