import { existsSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { CallDescription, Request, RequestContext } from "../../contracts/requests.js";
import { isInside, PathResolutionError, resolveRequestPath, resolveRequestPaths, UNKNOWN_PATH } from "./requests.js";

/**
 * Building blocks for tools' `requests()`: what a call would do, as permission requests, with
 * paths resolved through symlinks. Recorded with every `call.permission` decision, so `bosun why`
 * shows exactly what was allowed or refused.
 */

/**
 * A file tool's path: `read:` or `edit:` of the resolved path, plus `external_directory:` when
 * it lies outside the workspace (`../x`, `/etc/x`, or a symlink inside pointing out).
 */
export function pathRequests(action: "read" | "edit", path: string, where: RequestContext): CallDescription {
  let resolved: string;
  try {
    resolved = resolveRequestPath(path, where.cwd);
  } catch (error) {
    if (error instanceof PathResolutionError)
      return { requests: [], problem: `path cannot be resolved: ${error.message}` };
    throw error;
  }
  const requests: Request[] = [{ action, resource: resolved }];
  if (!isInside(resolved, where.workspace)) requests.push({ action: "external_directory", resource: resolved });
  return { requests };
}

/** The shell analysis and glob matching, loaded with the first shell call (see shellRequests). */
let shellModules: Promise<[typeof import("../shell/analyze.js"), typeof import("../shell/glob.js")]> | undefined;

/**
 * A shell line: every simple command is its own `shell:` request (with whether it is proven
 * read-only and the prefix an "always" would cover); files it writes are `edit:` requests, files
 * it names that exist, and the files its glob operands match now, are `read:` requests; hosts it
 * connects to (`/dev/tcp/host/port`) are `web:` requests; whatever lies outside the workspace is
 * also `external_directory:`. The analysis is lexical, so the file system is read here: paths
 * resolved through symlinks in both spellings a shell may use (see `resolveRequestPaths`), globs
 * matched (shell/glob.ts), and the repository a read-only git command would use looked at. A
 * line that does not parse is described as a problem, never as harmless.
 */
export async function shellRequests(command: string, where: RequestContext): Promise<CallDescription> {
  // The analysis (its tables, the parser) loads with the first shell call, not at start-up.
  // Kept once loaded: a dynamic import() per call costs more than the analysis itself. A failed
  // load is not kept, so a later call retries.
  shellModules ??= Promise.all([import("../shell/analyze.js"), import("../shell/glob.js")]).catch((error: unknown) => {
    shellModules = undefined;
    throw error;
  });
  const [{ analyzeShell }, { expandGlob }] = await shellModules;
  const analysis = await analyzeShell(command, where);
  if (!analysis.parsed) {
    return { requests: [], problem: analysis.problem ?? "the command line does not parse" };
  }
  const out: Request[] = [];
  const seen = new Set<string>();
  const add = (request: Request) => {
    const key = `${request.action}\u0000${request.resource}`;
    if (request.action !== "shell" && seen.has(key)) return;
    seen.add(key);
    out.push(request);
  };
  const addPath = (action: "read" | "edit" | "external_directory", lexical: string) => {
    if (lexical === UNKNOWN_PATH) return add({ action, resource: UNKNOWN_PATH });
    let paths: string[];
    try {
      paths = resolveRequestPaths(lexical, "/");
    } catch {
      // A loop or an unnameable path: unknown, judged by the rules that cover every path.
      return add({ action, resource: UNKNOWN_PATH });
    }
    for (const resolved of paths) {
      add({ action, resource: resolved });
      if (action !== "external_directory" && !isInside(resolved, where.workspace)) {
        add({ action: "external_directory", resource: resolved });
      }
    }
  };
  for (const request of analysis.requests) {
    if (request.action === "shell") {
      const foreign = request.gitDirs?.map(foreignRepository).find((why) => why !== null);
      add({
        action: "shell",
        resource: request.resource,
        // A read-only git command is read-only only in a repository whose config nobody committed.
        readOnly: request.readOnly === true && foreign === undefined,
        ...(request.unclassified ? { unclassified: true } : {}),
        ...(request.prefix !== undefined ? { prefix: request.prefix } : {}),
      });
      for (const operand of request.operands ?? []) if (existsSync(operand)) addPath("read", operand);
      continue;
    }
    if (request.action === "read" && request.glob) {
      // `cat .en?`: what bash will expand it to, from the file system now; each match is read.
      const expansion = expandGlob(request.resource, { wide: analysis.wideGlobs === true });
      if ("unknown" in expansion) {
        // Any file it could match, outside the workspace too (a link, `..`).
        add({ action: "read", resource: UNKNOWN_PATH });
        add({ action: "external_directory", resource: UNKNOWN_PATH });
        continue;
      }
      for (const match of expansion.matches) addPath("read", match);
      for (const word of expansion.literals) if (existsSync(word)) addPath("read", word);
      continue;
    }
    if (request.action === "web") {
      // A host the line connects to (`< /dev/tcp/host/port`): judged by the web rules.
      add({ action: "web", resource: request.resource });
      continue;
    }
    addPath(request.action, request.resource);
  }
  return { requests: out };
}

/**
 * Why git run in `dir` would use a repository whose config anyone could have committed, or null.
 * git walks up from `dir` and takes the first folder that is a repository: one holding `.git`
 * (made by git itself: a path named .git cannot be committed), or a bare repository, which can:
 * a folder with `HEAD`, `objects/` and `refs/`, committed as plain files, whose `config` may set
 * core.fsmonitor, core.worktree, diff.external, textconv or filters, programs that plain
 * `git status` or `git log -p` run (checked with git 2.39). A `.git` folder itself is the first
 * kind. Also when where git runs is not known (`*`).
 */
function foreignRepository(dir: string): string | null {
  if (dir === UNKNOWN_PATH) return "where git runs is not known";
  let current = dir;
  while (true) {
    if (existsSync(join(current, ".git"))) return null;
    if (isGitDirectory(current)) {
      return basename(current) === ".git"
        ? null
        : `git would use the bare repository ${current}, whose config can run programs`;
    }
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/** git's own test (setup.c): a HEAD file, an objects folder and a refs folder. */
function isGitDirectory(dir: string): boolean {
  try {
    return (
      statSync(join(dir, "HEAD")).isFile() &&
      statSync(join(dir, "objects")).isDirectory() &&
      statSync(join(dir, "refs")).isDirectory()
    );
  } catch {
    return false;
  }
}

/** `read:/w/a.txt, shell:git status (read-only), edit:/w/out.txt` */
export function formatRequests(description: CallDescription): string {
  const parts = description.requests.map((r) => formatRequest(r));
  if (description.problem) parts.push(`not fully described: ${description.problem}`);
  return parts.join(", ") || "nothing";
}

export function formatRequest(request: Request): string {
  const note = request.readOnly === undefined ? "" : request.readOnly ? " (read-only)" : " (writes)";
  return `${request.action}:${request.resource}${note}`;
}

/** Whether a call may change anything: it edits, runs a command or tool not proven read-only, or was not fully described. */
export function mayChange(description: CallDescription): boolean {
  if (description.problem !== undefined) return true;
  return description.requests.some(
    (r) => r.action === "edit" || ((r.action === "shell" || r.action === "mcp") && r.readOnly !== true),
  );
}

/** Whether two descriptions of a call name the same requests (same order, same resources). */
export function sameRequests(a: CallDescription, b: CallDescription): boolean {
  return formatRequests(a) === formatRequests(b);
}
