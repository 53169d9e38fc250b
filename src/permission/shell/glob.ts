/**
 * Pathname expansion at analysis time: what a glob operand (`cat .en?`, `head {.env,x}`,
 * `cat ./src/../.e*`) will name when bash expands it, from the file system as it is now, so that
 * each match is judged by the read rules like a file named outright. bash's rules: `*`, `?`,
 * brackets and braces; a name starting with `.` only when the pattern's segment starts with a
 * literal `.`; `.` and `..` too then (bash before 5.2, without globskipdots, matches them).
 * With `wide` (the line may turn on dotglob, nocaseglob, extglob, globstar or set GLOBIGNORE),
 * the widest of those: leading dots matched by wildcards, case ignored, extended patterns read,
 * `**` through every folder (links followed, loops cut).
 *
 * When the answer cannot be had (a folder it cannot read, more matches or entries than the
 * bounds), it says so: the caller then treats the operand as any file.
 */
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { entryExists } from "../../util/fs.js";
import { expandBraces, GLOB_MATCH_LIMIT, hasExtglob, hasGlob, segmentMatcher, unescapeGlob } from "./pattern.js";

export { GLOB_MATCH_LIMIT } from "./pattern.js";
/** At most this many folder entries read per operand (a `**` over a large tree). Past it: any file. */
export const GLOB_SCAN_LIMIT = 20_000;

export interface GlobOptions {
  /** Match the widest way the line's shell options could make bash match. */
  wide: boolean;
  matchLimit?: number;
  scanLimit?: number;
  /** Reads a folder (default `readdirSync`): tests give a folder root could read anyway a refusal. */
  readdir?: (dir: string) => Dirent[];
}

export type GlobExpansion =
  /**
   * `matches`: existing paths the pattern matches. `literals`: the words themselves, which bash
   * passes on when nothing matches (the caller keeps the ones that exist, as for any operand).
   */
  | { matches: string[]; literals: string[] }
  /** Why the matches cannot be known: the operand may name any file. */
  | { unknown: string };

/** Expands an absolute pattern (pattern.ts syntax: quoted characters escaped) against the file system. */
export function expandGlob(pattern: string, options: GlobOptions): GlobExpansion {
  const matchLimit = options.matchLimit ?? GLOB_MATCH_LIMIT;
  const budget: Budget = {
    scanned: 0,
    limit: options.scanLimit ?? GLOB_SCAN_LIMIT,
    readdir: options.readdir ?? ((dir) => readdirSync(dir, { withFileTypes: true })),
  };
  let words: string[];
  try {
    words = expandBraces(pattern, matchLimit);
  } catch {
    return { unknown: `brace expansion gives more than ${matchLimit} words` };
  }
  const matches = new Set<string>();
  const literals = new Set<string>();
  for (const word of words) {
    literals.add(tidy(unescapeGlob(word)));
    if (!hasGlob(word) && !(options.wide && hasExtglob(word))) continue;
    const found = matchWord(word, options.wide, budget, matchLimit);
    if (typeof found === "string") return { unknown: found };
    for (const path of found) matches.add(path);
    if (matches.size > matchLimit) return { unknown: `more than ${matchLimit} matches` };
  }
  return { matches: [...matches], literals: [...literals] };
}

/** `//` and `.` segments change nothing; `..` stays (the caller resolves it both ways). */
function tidy(path: string): string {
  return `/${path
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/")}`;
}

function join(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/** Splits a pattern at its unescaped slashes. */
function segments(pattern: string): string[] {
  const out: string[] = [];
  let current = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "\\") {
      current += c + (pattern[i + 1] ?? "");
      i++;
    } else if (c === "/") {
      out.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  out.push(current);
  return out;
}

type Budget = { scanned: number; limit: number; readdir: (dir: string) => Dirent[] };

function entries(dir: string, budget: Budget): Dirent[] | string {
  let list: Dirent[];
  try {
    list = budget.readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    return `cannot read the folder ${dir} (${code ?? "error"})`;
  }
  budget.scanned += list.length;
  if (budget.scanned > budget.limit) return `more than ${budget.limit} folder entries to read`;
  return list;
}

function isDirectory(dir: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(join(dir, entry.name)).isDirectory();
  } catch {
    return false;
  }
}

/** The paths one brace-free absolute pattern matches, or why that cannot be known. */
function matchWord(word: string, wide: boolean, budget: Budget, limit: number): string[] | string {
  const parts = segments(word);
  let paths = ["/"];
  let literalTail = false;
  for (let k = 0; k < parts.length; k++) {
    const segment = parts[k] as string;
    const last = k === parts.length - 1;
    if (segment === "") {
      if (last && k > 0) {
        // A trailing slash: folders only.
        paths = paths.filter((p) => {
          try {
            return statSync(p).isDirectory();
          } catch {
            return false;
          }
        });
      }
      continue;
    }
    const pattern = hasGlob(segment) || (wide && hasExtglob(segment));
    if (!pattern) {
      const name = unescapeGlob(segment);
      paths = paths.map((p) => join(p, name));
      literalTail = true;
      continue;
    }
    literalTail = false;
    const next: string[] = [];
    if (wide && segment === "**") {
      // globstar: this folder and every folder below it (every entry, as the last segment).
      const found = descendants(paths, !last, budget);
      if (typeof found === "string") return found;
      next.push(...found);
    } else {
      let matches: (name: string) => boolean;
      try {
        matches = segmentMatcher(segment, { extglob: wide, nocase: wide });
      } catch {
        return `a pattern bosun cannot read: ${segment}`;
      }
      const explicitDot = segment.startsWith(".") || segment.startsWith("\\.");
      for (const dir of paths) {
        const list = entries(dir, budget);
        if (typeof list === "string") return list;
        const names = list.map((e) => e.name);
        if (explicitDot) names.push(".", "..");
        for (const name of names) {
          if (name.startsWith(".") && !explicitDot && (!wide || name === "." || name === "..")) continue;
          if (matches(name)) next.push(join(dir, name));
        }
        if (next.length > limit) return `more than ${limit} matches`;
      }
    }
    paths = next;
  }
  return literalTail ? paths.filter(entryExists) : paths;
}

/** `**`: each folder and everything (or every folder) below it; links to folders followed once. */
function descendants(roots: string[], foldersOnly: boolean, budget: Budget): string[] | string {
  const out: string[] = [];
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    out.push(dir);
    const list = entries(dir, budget);
    if (typeof list === "string") return list;
    for (const entry of list) {
      const path = join(dir, entry.name);
      if (isDirectory(dir, entry)) stack.push(path);
      else if (!foldersOnly) out.push(path);
    }
  }
  return out;
}
