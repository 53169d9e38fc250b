import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "../contracts/tools.js";
import { pathRequests } from "../permission/rules/call-requests.js";
import { findRepoRoot, foldersBetween } from "../util/repo.js";
import { describeError, displayPath, errorCode, notFoundMessage, resolvePath } from "./paths.js";

const schema = z.strictObject({
  path: z.string().optional().describe("Folder (default: the workspace)"),
});

export type ListInput = z.infer<typeof schema>;

export const listTool: Tool<ListInput> = {
  name: "list",
  description: "List a folder's entries, folders first (ending in /). Skips .gitignored entries.",
  schema,
  kind: "read",
  requests: async (input, where) => pathRequests("read", input.path ?? ".", where),
  async execute(input, ctx) {
    const absolute = resolvePath(ctx.cwd, input.path ?? ".");
    const shown = displayPath(ctx.cwd, absolute);
    let isFolder: boolean;
    try {
      isFolder = statSync(absolute).isDirectory();
    } catch (error) {
      const message =
        errorCode(error) === "ENOENT"
          ? notFoundMessage(ctx.cwd, absolute)
          : `Cannot list ${shown}: ${describeError(error)}`;
      return { output: message, isError: true, summary: `list ${shown} (not found)` };
    }
    if (!isFolder) {
      return {
        output: `${shown} is a file, not a folder; use read to see it.`,
        isError: true,
        summary: `list ${shown} (a file)`,
      };
    }
    return listResult("list", absolute, ctx);
  },
};

export interface FolderListing {
  /** Entry names shown, folders first, each folder ending in "/". */
  entries: string[];
  /** Entries after .git and .gitignore filtering (shown or not). */
  total: number;
  /** Entries skipped because .gitignore rules ignore them. */
  ignored: number;
  /** The folder itself is gitignored: its entries are shown unfiltered, since it was asked for by name. */
  folderIgnored: boolean;
}

/** A folder's entries: folders first, each group sorted by name, `.git` and gitignored entries left out, at most `limit`. */
export function listFolder(absolute: string, limit: number): FolderListing {
  const dirents = readdirSync(absolute, { withFileTypes: true }).filter((d) => d.name !== ".git");
  const matcher = gitignoreFor(absolute);
  const folders: string[] = [];
  const files: string[] = [];
  let ignored = 0;
  for (const dirent of dirents) {
    const folder = isFolderEntry(absolute, dirent);
    if (matcher.filter && matcher.ignores(join(absolute, dirent.name), folder)) {
      ignored++;
      continue;
    }
    (folder ? folders : files).push(folder ? `${dirent.name}/` : dirent.name);
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const all = [...folders.sort(byName), ...files.sort(byName)];
  return { entries: all.slice(0, Math.max(0, limit)), total: all.length, ignored, folderIgnored: !matcher.filter };
}

/** The result for a listed folder, shared by `list` and `read` (which lists a folder it is given). */
export function listResult(tool: "list" | "read", absolute: string, ctx: ToolContext): ToolResult {
  const shown = displayPath(ctx.cwd, absolute);
  let listing: FolderListing;
  try {
    listing = listFolder(absolute, ctx.limits.maxResults);
  } catch (error) {
    return {
      output: `Cannot list ${shown}: ${describeError(error)}`,
      isError: true,
      summary: `${tool} ${shown} (failed)`,
    };
  }
  const lines = [...listing.entries];
  const more = listing.total - listing.entries.length;
  if (listing.total === 0) lines.push("(empty folder)");
  if (more > 0) lines.push(`(${more} more ${more === 1 ? "entry" : "entries"} not shown; use glob to narrow)`);
  if (listing.ignored > 0) {
    lines.push(`(${listing.ignored} gitignored ${listing.ignored === 1 ? "entry" : "entries"} not shown)`);
  }
  const count = `${listing.total} ${listing.total === 1 ? "entry" : "entries"}`;
  return {
    output: lines.join("\n"),
    summary: tool === "read" ? `read ${shown} (folder, ${count})` : `list ${shown} (${count})`,
    metadata: {
      path: absolute,
      entries: listing.total,
      shown: listing.entries.length,
      ignored: listing.ignored,
      folderIgnored: listing.folderIgnored,
    },
  };
}

function isFolderEntry(parent: string, dirent: Dirent): boolean {
  if (dirent.isDirectory()) return true;
  if (!dirent.isSymbolicLink()) return false;
  try {
    return statSync(join(parent, dirent.name)).isDirectory();
  } catch {
    return false;
  }
}

interface Level {
  base: string;
  rules: Ignore;
}

interface Matcher {
  /** False when the folder itself is ignored: then nothing inside is filtered. */
  filter: boolean;
  ignores(path: string, folder: boolean): boolean;
}

/**
 * Gitignore rules for the entries of `folder`: `.git/info/exclude` and every `.gitignore` from
 * the repository root (or the folder itself, outside a repository) down to the folder. Deeper
 * files win, and a negated pattern re-includes, as in git.
 */
function gitignoreFor(folder: string): Matcher {
  const root = findRepoRoot(folder) ?? folder;
  const levels: Level[] = [];
  const exclude = readText(join(root, ".git", "info", "exclude"));
  if (exclude !== undefined) levels.push({ base: root, rules: ignore().add(exclude) });
  const chain = foldersBetween(root, folder);
  for (const dir of chain) {
    const text = readText(join(dir, ".gitignore"));
    if (text !== undefined) levels.push({ base: dir, rules: ignore().add(text) });
  }

  const ignores = (path: string, isFolder: boolean, usable: Level[]) => {
    let ignored = false;
    for (const level of usable) {
      const rel = sep === "/" ? relative(level.base, path) : relative(level.base, path).split(sep).join("/");
      if (!isInside(level.base, path) || rel === "") continue;
      const result = level.rules.test(isFolder ? `${rel}/` : rel);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  };

  // The folder (or a folder above it, below the root) is ignored when the rules above it say so.
  const folderIgnored = chain.slice(1).some((dir) =>
    ignores(
      dir,
      true,
      levels.filter((l) => isInside(l.base, dirname(dir))),
    ),
  );
  return { filter: !folderIgnored, ignores: (path, isFolder) => ignores(path, isFolder, levels) };
}

function isInside(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
