import type { Dirent } from "node:fs";
import { readdir, readFileSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { Ignore } from "ignore";
import { z } from "zod";
import type { Tool, ToolResult } from "../contracts/tools.js";
import { pathRequests } from "../permission/rules/call-requests.js";
import { findRepoRoot } from "../util/repo.js";

const schema = z.strictObject({
  pattern: z.string().min(1).describe("Glob, e.g. **/*.ts"),
  path: z.string().optional().describe("Folder to search in; default the workspace"),
});

export type GlobInput = z.infer<typeof schema>;

export const globTool: Tool<GlobInput> = {
  name: "glob",
  description: "Find files by glob. Skips .gitignored files, .git and node_modules. Newest first.",
  schema,
  kind: "read",
  requests: async (input, where) => {
    // The pattern's literal leading folders are where the search really starts: `../../*` reads
    // two folders up, `/etc/*` reads /etc. A `..` after a wildcard cannot be placed: never allowed.
    const segments = input.pattern.split("/");
    const firstDynamic = segments.findIndex((segment) => /[*?[\]{}!()]/.test(segment));
    if (firstDynamic >= 0 && segments.slice(firstDynamic).some((segment) => segment.replace(/\\(.)/g, "$1") === "..")) {
      return { requests: [], problem: `the pattern climbs out with ".." after a wildcard: ${input.pattern}` };
    }
    // The glob library reads `\x` as `x`: so must the folder the request names (`lin\k/*` is `link/*`).
    const literal = (firstDynamic < 0 ? segments.slice(0, -1) : segments.slice(0, firstDynamic))
      .join("/")
      .replace(/\\(.)/g, "$1");
    const base = input.path ?? ".";
    const searched = input.pattern.startsWith("/") ? literal || "/" : literal === "" ? base : `${base}/${literal}`;
    return pathRequests("read", searched, where);
  },
  async execute(input, ctx): Promise<ToolResult> {
    const label = `glob ${input.pattern}${input.path ? ` in ${input.path}` : ""}`;
    const fail = (output: string, short: string): ToolResult => ({
      output,
      isError: true,
      summary: `${label} → ${short}`,
    });

    const base = resolve(ctx.cwd, input.path ?? ".");
    try {
      if (!statSync(base).isDirectory()) return fail(`not a folder: ${input.path}`, "not a folder");
    } catch {
      return fail(`path not found: ${input.path ?? base}`, "path not found");
    }

    const [{ glob, isDynamicPattern }, { default: ignore }] = await Promise.all([
      import("tinyglobby"),
      import("ignore"),
    ]);
    const segments = input.pattern.split("/");
    const firstDynamic = segments.findIndex((segment) => isDynamicPattern(segment));
    const prefix = segments.slice(0, firstDynamic < 0 ? segments.length - 1 : firstDynamic).join("/");
    const filter = new IgnoreFilter(base, ignore, {
      prefix,
      named: new Set(segments.filter((segment) => segment && !isDynamicPattern(segment))),
      allowGit: names(input.pattern, ".git"),
      allowNodeModules: names(input.pattern, "node_modules"),
    });

    let found: string[];
    try {
      found = await glob(input.pattern, {
        cwd: base,
        absolute: true,
        dot: true,
        onlyFiles: true,
        followSymbolicLinks: false,
        signal: ctx.signal,
        fs: { readdir: filter.readdir },
      });
    } catch (error) {
      if (ctx.signal.aborted) return fail("cancelled", "cancelled");
      return fail(`glob failed: ${error instanceof Error ? error.message : String(error)}`, "error");
    }
    if (ctx.signal.aborted) return fail("cancelled", "cancelled");

    if (found.length === 0) return { output: "no files match", summary: `${label} → no files`, metadata: { files: 0 } };

    const dated = await Promise.all(
      found.map(async (file) => ({
        path: relative(ctx.cwd, file) || file,
        mtime: await stat(file).then(
          (s) => s.mtimeMs,
          () => 0,
        ),
      })),
    );
    dated.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

    const max = ctx.limits.maxResults;
    const lines = dated.slice(0, max).map((entry) => entry.path);
    const hidden = dated.length - lines.length;
    if (hidden > 0) lines.push(`[${hidden} more files not shown; narrow the pattern or path]`);
    return {
      output: lines.join("\n"),
      summary: `${label} → ${dated.length} ${dated.length === 1 ? "file" : "files"}`,
      metadata: { files: dated.length, truncated: hidden > 0 },
      keep: "head",
    };
  },
};

interface FilterOptions {
  /** The pattern's leading literal folders, e.g. "node_modules/zod" for "node_modules/zod/**\/*.ts". */
  prefix: string;
  /** Literal (non-glob) segments of the pattern: folders of those names are searched even when ignored. */
  named: Set<string>;
  allowGit: boolean;
  allowNodeModules: boolean;
}

/**
 * Applies .gitignore files (and .git/info/exclude) the way git does, while the folder tree is being
 * read, so ignored folders are never walked: each entry is judged by the deepest .gitignore that
 * has a verdict on it, from its own folder up to the repository root (or the search folder outside
 * a repository). An ignored folder is skipped with everything in it, unless the caller named it:
 * when the search folder itself is ignored only .gitignore files inside it apply, and a folder
 * named literally in the pattern is entered, judged by the .gitignore files inside it.
 */
class IgnoreFilter {
  private readonly root: string;
  private readonly rules = new Map<string, Ignore | null>();
  /** Ignored folders entered anyway because the caller named them. */
  private readonly exempt = new Set<string>();

  constructor(
    base: string,
    private readonly create: () => Ignore,
    private readonly options: FilterOptions,
  ) {
    this.root = findRepoRoot(base) ?? base;
    // Folders the caller named (the search folder, the pattern's leading literal folders) are
    // entered even when ignored, and judged from there down by the .gitignore files inside them.
    const explicit = resolve(base, options.prefix);
    const chain: string[] = [];
    for (let dir = explicit; dir !== this.root && isInside(dir, this.root); dir = dirname(dir)) chain.unshift(dir);
    for (const dir of chain) {
      if (this.ignored(dir, true, this.topFor(dirname(dir)))) this.exempt.add(dir);
    }
  }

  /** `fs.readdir` for tinyglobby: the native call, with ignored entries left out. */
  readonly readdir = ((path: string, options: unknown, callback: (error: Error | null, entries: Dirent[]) => void) => {
    const dir = resolve(String(path));
    readdir(dir, { withFileTypes: true }, (error, entries) => {
      if (error) return callback(error, []);
      callback(
        null,
        entries.filter((entry) => this.keep(dir, entry)),
      );
    });
    void options;
  }) as unknown as typeof readdir;

  private keep(dir: string, entry: Dirent): boolean {
    const name = entry.name;
    const isDir = entry.isDirectory();
    if (name === ".git" && !this.options.allowGit) return false;
    if (name === "node_modules" && isDir && !this.options.allowNodeModules) return false;
    const path = join(dir, name);
    if (!isInside(path, this.root)) return true;
    if (!this.ignored(path, isDir, this.topFor(dir))) return true;
    if (isDir && (this.options.named.has(name) || (name === "node_modules" && this.options.allowNodeModules))) {
      this.exempt.add(path);
      return true;
    }
    return false;
  }

  /** Where rule lookup for entries of `dir` stops: the deepest exempted folder at or above it, else the root. */
  private topFor(dir: string): string {
    if (this.exempt.size === 0) return this.root;
    for (let current = dir; isInside(current, this.root) && current !== this.root; current = dirname(current)) {
      if (this.exempt.has(current)) return current;
    }
    return this.root;
  }

  /** Whether `path` is ignored by the rules of folders from its parent up to `top`; the deepest verdict wins. */
  private ignored(path: string, isDir: boolean, top: string): boolean {
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      const rules = this.rulesIn(dir);
      if (rules) {
        const rel = relative(dir, path).split(sep).join("/") + (isDir ? "/" : "");
        const result = rules.test(rel);
        if (result.ignored) return true;
        if (result.unignored) return false;
      }
      if (dir === top || dir === this.root || dirname(dir) === dir) return false;
    }
  }

  private rulesIn(dir: string): Ignore | null {
    let rules = this.rules.get(dir);
    if (rules !== undefined) return rules;
    const texts: string[] = [];
    // info/exclude first: .gitignore rules come later in the same list and so take precedence.
    if (dir === this.root) texts.push(readText(join(dir, ".git", "info", "exclude")));
    texts.push(readText(join(dir, ".gitignore")));
    const content = texts.join("\n").trim();
    rules = content ? this.create().add(content) : null;
    this.rules.set(dir, rules);
    return rules;
  }
}

/** Whether `pattern` has `name` as a whole path segment (or a brace alternative). */
function names(pattern: string, name: string): boolean {
  return pattern.split(/[/{},]/).includes(name);
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}
