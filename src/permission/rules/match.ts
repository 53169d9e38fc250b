import type { Action, Request } from "../../contracts/requests.js";
import { isPathAction } from "./requests.js";

/**
 * Pattern matching for permission rules. Pure: nothing is read from disk. Three kinds:
 *
 * - Paths (read, edit, external_directory): globs. `*` and `?` never cross `/`, `**` does,
 *   `[abc]`/`[!abc]` classes, `{a,b}` alternatives, `\` escapes; dotfiles are ordinary names.
 *   A pattern starting with `/` is absolute; `~` or `~/...` is under the home folder; any other
 *   pattern is matched against the path relative to the workspace (when the path is inside it)
 *   AND against the absolute path — so `src/**` means the workspace's `src`, while `**\/.env*`
 *   matches a `.env` anywhere on disk. `dir/**` also matches `dir` itself; a pattern ending in
 *   `/` means the same as ending in `/**`; a leading `./` is dropped.
 * - Shell: the simple command's text, whitespace runs collapsed. Only `*` is special and it
 *   matches anything, spaces included; a trailing ` *` also matches the bare command
 *   (`git status *` matches `git status` and `git status -s`, not `git statusx`).
 * - web, delegate, mcp, skill, question, job: the resource with `*` matching anything. Web hosts compare
 *   without case and without a trailing dot (DNS does), so `EVIL.com.` is `evil.com`.
 *
 * The pattern `*` alone matches every resource of its action (it is what a bare effect like
 * `"edit": "ask"` means), even paths with `/` in them.
 */

export interface MatchContext {
  /** The workspace folder, absolute and resolved through symlinks. */
  workspace: string;
  /** The home folder that `~` in a path pattern stands for. */
  home: string;
}

/** Does a rule with this action and pattern match the request? */
export function ruleMatches(
  rule: { action: Action; pattern: string; when?: "read-only" },
  request: Request,
  ctx: MatchContext,
): boolean {
  if (rule.action !== request.action) return false;
  if (rule.when === "read-only" && request.readOnly !== true) return false;
  return matchResource(request.action, rule.pattern, request.resource, ctx);
}

export function matchResource(action: Action, pattern: string, resource: string, ctx: MatchContext): boolean {
  if (pattern === "*") return true;
  if (isPathAction(action)) return matchPath(pattern, resource, ctx);
  if (action === "shell") return matchShell(pattern, resource);
  if (action === "web") return matchName(normalizeHost(pattern), normalizeHost(resource));
  return matchName(pattern, resource);
}

/** A path glob against an absolute, resolved path. */
export function matchPath(pattern: string, path: string, ctx: MatchContext): boolean {
  if (pattern === "*") return true;
  const glob = normalizePathPattern(pattern, ctx.home);
  const regex = compiled(`p:${glob}`, () => globToRegExp(glob));
  if (regex.test(path)) return true;
  if (glob.startsWith("/")) return false;
  const relative = relativeInside(path, ctx.workspace);
  return relative !== undefined && regex.test(relative);
}

/** A shell pattern against one simple command's text. */
export function matchShell(pattern: string, command: string): boolean {
  const p = normalizeCommand(pattern);
  if (p === "*") return true;
  return compiled(`s:${p}`, () => shellToRegExp(p)).test(normalizeCommand(command));
}

/** `*` matches any characters; everything else is literal. */
export function matchName(pattern: string, resource: string): boolean {
  if (pattern === "*") return true;
  return compiled(`n:${pattern}`, () => new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`, "s")).test(
    resource,
  );
}

/** Whitespace runs become one space, ends trimmed: how shell patterns and commands compare. */
export function normalizeCommand(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, "");
}

/** `~` expanded, `./` dropped, `//` collapsed, a trailing `/` read as `/**`. */
export function normalizePathPattern(pattern: string, home: string): string {
  let p = pattern;
  if (p === "~") p = home;
  else if (p.startsWith("~/")) p = `${home.replace(/\/+$/, "")}/${p.slice(2)}`;
  p = p.replace(/\/{2,}/g, "/");
  while (p.startsWith("./")) p = p.slice(2);
  if (p.length > 1 && p.endsWith("/") && !p.endsWith("\\/")) p = `${p}**`;
  return p;
}

/** The path relative to the workspace when inside it ("" for the workspace itself). */
function relativeInside(path: string, workspace: string): string | undefined {
  const ws = workspace.length > 1 ? workspace.replace(/\/+$/, "") : workspace;
  if (path === ws) return "";
  const prefix = ws === "/" ? "/" : `${ws}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}

function shellToRegExp(pattern: string): RegExp {
  const bare = pattern.endsWith(" *") ? pattern.slice(0, -2) : undefined;
  const body = (text: string) => text.split("*").map(escapeRegExp).join(".*");
  // `git status *`: the bare command, or the command, a space, and anything.
  const source = bare !== undefined ? `${body(bare)}(?: .*)?` : body(pattern);
  return new RegExp(`^${source}$`, "s");
}

/**
 * A path glob as an anchored regular expression (dotAll, so a newline in a file name cannot
 * slip past `**`). An unclosed `[` or `{` is a literal character.
 */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${compileGlob(glob, 0, glob.length)}$`, "s");
}

function compileGlob(glob: string, start: number, end: number): string {
  let out = "";
  let i = start;
  // Where the current alternative began: `**` is a whole segment only after a `/` or there.
  const segmentStart = (at: number) => at === start || glob[at - 1] === "/";
  const segmentEnd = (at: number) => at === end || glob[at] === "/";
  while (i < end) {
    const c = glob[i] as string;
    if (c === "\\") {
      out += i + 1 < end ? escapeRegExp(glob[i + 1] as string) : "\\\\";
      i += 2;
      continue;
    }
    if (c === "/" && glob.startsWith("**", i + 1) && i + 3 === end) {
      // `dir/**`: the folder itself or anything below it.
      out += "(?:/.*)?";
      i += 3;
      continue;
    }
    if (c === "*") {
      if (glob[i + 1] === "*") {
        if (segmentStart(i) && segmentEnd(i + 2) && i + 2 < end) {
          // `**/`: zero or more folders.
          out += "(?:.*/)?";
          i += 3;
        } else {
          out += ".*";
          i += 2;
          while (glob[i] === "*" && i < end) i++;
        }
        continue;
      }
      out += "[^/]*";
      i++;
      continue;
    }
    if (c === "?") {
      out += "[^/]";
      i++;
      continue;
    }
    if (c === "[") {
      const cls = compileClass(glob, i, end);
      if (cls) {
        out += cls.source;
        i = cls.next;
        continue;
      }
      out += "\\[";
      i++;
      continue;
    }
    if (c === "{") {
      const alternatives = splitBraces(glob, i, end);
      if (alternatives) {
        out += `(?:${alternatives.parts.map(([a, b]) => compileGlob(glob, a, b)).join("|")})`;
        i = alternatives.next;
        continue;
      }
    }
    out += escapeRegExp(c);
    i++;
  }
  return out;
}

/** `[...]` at `open`: a class that never matches `/`, or undefined when it does not close. */
function compileClass(glob: string, open: number, end: number): { source: string; next: number } | undefined {
  let i = open + 1;
  let negate = false;
  if (glob[i] === "!" || glob[i] === "^") {
    negate = true;
    i++;
  }
  let body = "";
  let first = true;
  while (i < end) {
    const c = glob[i] as string;
    if (c === "]" && !first) {
      if (body === "") return undefined;
      const source = negate ? `[^/${body}]` : `(?!/)[${body}]`;
      return { source, next: i + 1 };
    }
    first = false;
    if (c === "\\" && i + 1 < end) {
      const escaped = glob[i + 1] as string;
      // `\d` is the letter d, not a regex digit class.
      body += /[A-Za-z0-9]/.test(escaped) ? escaped : `\\${escaped}`;
      i += 2;
      continue;
    }
    body += c === "-" ? "-" : c === "^" || c === "]" || c === "[" || c === "\\" ? `\\${c}` : c;
    i++;
  }
  return undefined;
}

/** `{a,b}` at `open`: the alternatives' spans, or undefined when it does not close or has no comma. */
function splitBraces(
  glob: string,
  open: number,
  end: number,
): { parts: Array<[number, number]>; next: number } | undefined {
  const parts: Array<[number, number]> = [];
  let depth = 0;
  let from = open + 1;
  for (let i = open + 1; i < end; i++) {
    const c = glob[i];
    if (c === "\\") {
      i++;
    } else if (c === "[") {
      const cls = compileClass(glob, i, end);
      if (cls) i = cls.next - 1;
    } else if (c === "{") {
      depth++;
    } else if (c === "}") {
      if (depth > 0) {
        depth--;
        continue;
      }
      parts.push([from, i]);
      return parts.length > 1 ? { parts, next: i + 1 } : undefined;
    } else if (c === "," && depth === 0) {
      parts.push([from, i]);
      from = i + 1;
    }
  }
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

const cache = new Map<string, RegExp>();

function compiled(key: string, build: () => RegExp): RegExp {
  let regex = cache.get(key);
  if (!regex) {
    if (cache.size > 2000) cache.clear();
    regex = build();
    cache.set(key, regex);
  }
  return regex;
}
