/**
 * The files and folders a command names, as requests: what it writes (`> f`, `tee f`, `sed w`),
 * what it reads (`< f`, glob operands, `sed r`), where it leaves the workspace (`../x`, `/etc/x`,
 * `cd /tmp`), and where it reaches the network (`/dev/tcp/host/port`). Lexical: paths are
 * resolved through links by the caller.
 */
import path from "node:path";
import { type Cwd, emitShell, type ShellRequest, type State } from "./analysis-state.js";
import { isHarmlessDevice } from "./commands.js";
import type { Redirect, Stmt, Word } from "./parse.js";
import { escapeGlob, expandBraces, GLOB_MATCH_LIMIT, unescapeGlob } from "./pattern.js";

export function inside(workspace: string, target: string): boolean {
  if (workspace === "/") return true;
  return target === workspace || target.startsWith(`${workspace}/`);
}

/**
 * The directory a literal word names from `cwd`, normalized the way `cd` (logical, bash's default)
 * does; null when the word or cwd is unknown. For `cd` and `env -C` only: files are `filePath`.
 */
export function resolveWord(word: Word, cwd: Cwd): Cwd {
  if (word.value === null) return null;
  if (path.isAbsolute(word.value)) return path.resolve(word.value);
  if (cwd === null) return null;
  return path.resolve(cwd, word.value);
}

/**
 * The absolute path a literal word names as a file, from `cwd`, with its `..` segments KEPT: the
 * kernel applies `link/..` after following `link`, so normalizing here would judge the wrong
 * file. The caller resolves it through symlinks in both spellings (resolveRequestPaths).
 */
export function filePath(word: Word, cwd: Cwd): Cwd {
  if (word.value === null) return null;
  return rawJoin(cwd, word.value);
}

export function rawJoin(cwd: Cwd, value: string): Cwd {
  if (!path.isAbsolute(value) && cwd === null) return null;
  const joined = path.isAbsolute(value) ? value : `${cwd === "/" ? "" : cwd}/${value}`;
  // `//` and `.` segments change nothing, whatever links there are; `..` segments stay.
  const segments = joined.split("/").filter((segment) => segment !== "" && segment !== ".");
  return `/${segments.join("/")}`;
}

/** Whether a raw path (with `..` segments) lies inside the workspace, lexically. */
export function insideRaw(workspace: string, raw: string): boolean {
  return inside(workspace, path.resolve(raw));
}

export function emitExternal(state: State, resource: string): void {
  state.out.push({ action: "external_directory", resource });
}

export function emitEdit(state: State, resource: string): void {
  state.out.push({ action: "edit", resource });
  for (const sink of state.sinks) sink.readOnly = false;
}

/** A file a command writes: `edit:<absolute path>`, or `edit:*` when the path is not known. */
export function editTarget(state: State, word: Word, cwds: Cwd[]): void {
  if (word.value !== null && isHarmlessDevice(word.value)) return;
  if (word.value === null) {
    // Not known before it runs: it may be any file, outside the workspace too.
    emitEdit(state, "*");
    emitExternal(state, "*");
    return;
  }
  for (const cwd of cwds) {
    const target = filePath(word, cwd);
    if (target === null) {
      emitEdit(state, "*");
      emitExternal(state, "*");
      continue;
    }
    emitEdit(state, target);
    if (!insideRaw(state.workspace, target)) emitExternal(state, path.resolve(target));
  }
}

/**
 * Files a command reads or writes that no word of its own names (`sed '1r f; w g'`, `xargs -a f`):
 * a written one is an edit request, a read one an operand (a read request when it exists), `*`
 * any file; outside the workspace, external_directory too.
 */
export function namedFiles(
  state: State,
  request: ShellRequest,
  files: { reads: string[]; writes: string[] },
  cwds: Cwd[],
): void {
  for (const file of files.writes) {
    if (file === "*") {
      emitEdit(state, "*");
      emitExternal(state, "*");
    } else {
      editTarget(state, literal(file), cwds);
    }
  }
  for (const file of files.reads) {
    if (file === "*") {
      state.out.push({ action: "read", resource: "*" });
      emitExternal(state, "*");
      continue;
    }
    if (isHarmlessDevice(file)) continue;
    const operands = new Set(request.operands ?? []);
    for (const cwd of cwds) {
      const target = rawJoin(cwd, file);
      if (target === null) {
        state.out.push({ action: "read", resource: "*" });
        emitExternal(state, "*");
        continue;
      }
      operands.add(target);
      if (!insideRaw(state.workspace, target)) emitExternal(state, path.resolve(target));
    }
    if (operands.size > 0) request.operands = [...operands];
  }
}

/**
 * A glob or brace operand over literal text (`.en?`, `{.env,x}`, `src/../.e*`): a `read:` pattern
 * request per brace word and known working directory, which the caller expands against the file
 * system (glob.ts). Where the directory is not known, or braces give too many words: `read:*`
 * (pathArguments adds external_directory).
 */
export function globRead(state: State, word: Word, cwds: Cwd[]): void {
  if (word.glob === undefined) return;
  let patterns: string[];
  try {
    patterns = expandBraces(word.glob, GLOB_MATCH_LIMIT);
  } catch {
    state.out.push({ action: "read", resource: "*" });
    emitExternal(state, "*");
    return;
  }
  for (const pattern of patterns) {
    for (const cwd of cwds) {
      if (!pattern.startsWith("/") && cwd === null) {
        state.out.push({ action: "read", resource: "*" });
        continue;
      }
      const absolute = pattern.startsWith("/") ? pattern : `${escapeGlob(cwd as string)}/${pattern}`;
      state.out.push({ action: "read", resource: absolute, glob: true });
    }
  }
}

export function literal(text: string): Word {
  return { text, value: text, prefix: text, expands: false, splits: false, subs: [] };
}

/** A file a redirection reads (`< .env`): `read:<absolute path>` when the path is known. */
export function readTarget(state: State, word: Word, cwds: Cwd[]): void {
  if (word.value === null) {
    if (word.glob !== undefined) {
      globRead(state, word, cwds);
    } else {
      // Not known before it runs: any file, outside the workspace too.
      state.out.push({ action: "read", resource: "*" });
      emitExternal(state, "*");
    }
    return;
  }
  if (isHarmlessDevice(word.value)) return;
  for (const cwd of cwds) {
    const target = filePath(word, cwd);
    if (target !== null) state.out.push({ action: "read", resource: target });
  }
}

/** `/dev/tcp/<host>/<port>` or `/dev/udp/...`, however the path is spelled (`//dev/./tcp`, `/dev/../dev/tcp`). */
export const NETWORK_PATH = /^\/dev\/(tcp|udp)\/([^/]*)/;

/**
 * The hosts a redirection target may connect to: bash itself matches the literal text
 * `/dev/tcp/` (and `/dev/udp/`), but every spelling that lands there is counted, and a target not
 * known before it runs (`< "$f"`, `> /dev/$x/h/p`, `< /dev/tc?/h/p`) counts as any host (`*`)
 * unless its known beginning rules that out (`> out/$x`, `< "$HOME/x"`).
 */
export function networkHosts(target: Word, cwds: Cwd[]): string[] {
  if (target.value !== null) {
    const hosts = new Set<string>();
    const candidates = path.isAbsolute(target.value)
      ? [path.resolve(target.value)]
      : cwds.filter((c): c is string => c !== null).map((c) => path.resolve(c, target.value as string));
    for (const candidate of candidates) {
      const m = NETWORK_PATH.exec(candidate);
      if (m) hosts.add(m[2] || "*");
    }
    return [...hosts];
  }
  const prefix = target.prefix;
  // A path `find` found exists; nothing exists under /dev/tcp.
  if (target.notOption && prefix === "") return [];
  // A pattern over literal text (`*.txt`) that does not start at `/` stays relative.
  const lead = target.text.replace(/^['"]+/, "")[0];
  if (!target.dynamic && target.template === undefined && lead !== "/" && lead !== "{" && lead !== "\\") return [];
  if (prefix === "") return ["*"];
  if (!prefix.startsWith("/")) return [];
  if (prefix.split("/").includes("..")) return ["*"];
  const squeezed = prefix.replace(/\/(\.\/)+/g, "/").replace(/\/+/g, "/");
  const m = NETWORK_PATH.exec(squeezed);
  if (m) return [squeezed.length > m[0].length && m[2] ? m[2] : "*"];
  return ["/dev/tcp/", "/dev/udp/"].some((p) => p.startsWith(squeezed)) ? ["*"] : [];
}

export const WRITE_REDIRECTS = new Set([">", ">>", "&>", "&>>", ">|", ">&"]);
export const READ_REDIRECTS = new Set(["<", "<&"]);

/**
 * One redirection: what it writes, reads or connects to. `visit` analyses the commands inside it
 * (`> "$(cmd)"`, process substitutions) from the same working directories.
 */
export function redirect(state: State, r: Redirect, cwds: Cwd[], visit: (sub: Stmt) => void): void {
  for (const sub of r.subs) visit(sub);
  const target = r.target;
  if (!target) return;
  for (const sub of target.subs) visit(sub);
  // `2>&1`, `>&-`, `<&0`: descriptor duplication, not a file.
  if ((r.op === ">&" || r.op === "<&") && target.value !== null && /^(\d+-?|-)$/.test(target.value)) return;
  const hosts = networkHosts(target, cwds);
  if (hosts.length > 0) {
    // bash opens `/dev/tcp/host/port` and `/dev/udp/host/port` as sockets, in any direction
    // (`< `, `>`, `>>`, `&>`, `>&`): a connection, and a host name that can carry data by DNS.
    emitShell(state, `${r.fd ?? ""}${r.op} ${target.text}`, false);
    for (const host of hosts) state.out.push({ action: "web", resource: host });
  }
  if (WRITE_REDIRECTS.has(r.op)) {
    editTarget(state, target, cwds);
  } else if (READ_REDIRECTS.has(r.op)) {
    pathArguments(state, [target], cwds, 0);
    if (r.op === "<") readTarget(state, target, cwds);
  } else if (r.op !== ">&-" && r.op !== "<&-") {
    // An operator this analysis does not know about may write: fail closed.
    editTarget(state, target, cwds);
  }
}

/** Commands whose arguments are never files they open: an unknown argument of theirs reads nothing. */
export const NOT_FILES = new Set([
  "echo",
  "printf",
  "true",
  "false",
  ":",
  "test",
  "[",
  "seq",
  "sleep",
  "exit",
  "return",
  "shift",
  "break",
  "continue",
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
  "unset",
  "set",
  "shopt",
  "read",
  "mapfile",
  "readarray",
  "basename",
  "dirname",
  "expr",
  "wait",
  "kill",
  "type",
  "which",
  "command",
  "builtin",
  "hash",
  "alias",
  "unalias",
  "trap",
  "getopts",
  "eval",
]);

/** Commands whose path arguments are where to go or what to write, not files to read. */
export const NOT_READ = new Set(["cd", "pushd", "popd", "tee"]);

/**
 * Arguments that name paths leaving the workspace: `external_directory:<absolute path>`. A path
 * is seen where it stands as the word (`/etc/x`, `../x`, `~/x`), after `=` (`--file=/etc/x`), glued to
 * a short option (`-f/etc/x`), inside a script argument (`sed '1r /etc/x'`, `getline < "/etc/x"`) or
 * as a `file://` URL. An argument not known before the command runs (`cat $f`, `{$a,$b}`, `~+/x`)
 * may be any path: `external_directory:*`, unless the command never opens its arguments (`echo`).
 */
export function pathArguments(state: State, words: Word[], cwds: Cwd[], from = 1): void {
  const command = from === 1 ? words[0]?.value : null;
  const opensFiles = command === null || command === undefined || !NOT_FILES.has(command);
  for (let i = from; i < words.length; i++) {
    const word = words[i] as Word;
    if (!opensFiles) continue;
    if (word.value === null && (word.dynamic || word.template !== undefined)) {
      // `cat $f`: any file, outside the workspace too. (A path `find` found is not: like
      // `grep -r`, what find walks into is not named before it runs.)
      if (!word.notOption) {
        if (command === null || command === undefined || !NOT_READ.has(command)) {
          state.out.push({ action: "read", resource: "*" });
        }
        emitExternal(state, "*");
      }
      continue;
    }
    // A glob or brace pattern over literal text (`src/*.ts`, `{a,/etc/b}`) stays where its literal parts say.
    const literal = word.value ?? (word.glob !== undefined ? unescapeGlob(word.glob) : word.text);
    // Where the working directory is not known, a relative path may be anywhere.
    if (cwds.includes(null) && !literal.startsWith("-") && !path.isAbsolute(literal) && !isHarmlessDevice(literal)) {
      // `cd "$d"; cat .env` reads some .env: the read rules must see an unknown path.
      if (command === null || command === undefined || !NOT_READ.has(command)) {
        state.out.push({ action: "read", resource: "*" });
      }
      emitExternal(state, "*");
    }
    // Where HOME may be set, `--file=~/x` may be anywhere.
    if (state.home === null && /(^|[=:])~/.test(literal)) emitExternal(state, "*");
    const candidates = pathCandidates(literal, state.home ?? "~").map((c) => (word.value === null ? globFolder(c) : c));
    for (const candidate of candidates) {
      if (!escapes(candidate) || isHarmlessDevice(candidate)) continue;
      for (const cwd of cwds) {
        const target = rawJoin(cwd, candidate);
        if (target !== null && !insideRaw(state.workspace, target)) emitExternal(state, path.resolve(target));
      }
    }
  }
  // The command name itself, when it is a program outside the workspace (not a system one).
  if (from === 1) {
    const name = words[0];
    if (name?.value?.includes("/") && !/^\/(usr\/(local\/)?)?s?bin\/[^/]+$/.test(name.value)) {
      pathArguments(state, [name], cwds, 0);
    }
  }
}

/** The folder a glob pattern searches: its segments before the first one with a wildcard (`../*.ts` is `..`). */
export function globFolder(pattern: string): string {
  const segments = pattern.split("/");
  const first = segments.findIndex((segment) => /[*?[{]/.test(segment));
  if (first < 0) return pattern;
  const folder = segments.slice(0, first).join("/");
  return folder === "" ? (pattern.startsWith("/") ? "/" : ".") : folder;
}

/** Every place in a literal argument that may name a path (see pathArguments). */
export function pathCandidates(value: string, home: string): string[] {
  const out = new Set<string>([value]);
  const eq = value.indexOf("=");
  if (eq > 0) out.add(value.slice(eq + 1));
  if (/^-[A-Za-z]./.test(value) && !value.startsWith("--")) out.add(value.slice(2));
  for (const m of value.matchAll(/file:\/\/(\/[^\s'"]*)/g)) out.add(m[1] as string);
  // Other URLs are not paths: `https://host/x` names a host.
  const text = value.replace(/[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s'"]*/g, " ");
  for (const m of text.matchAll(/(?:^|[\s=,:;'"(<>|{])((?:\/|~\/|\.\.\/)[^\s'",;)<>|{}]*)/g)) out.add(m[1] as string);
  return [...out]
    .filter((c) => !/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(c))
    .map((c) => (c === "~" || c.startsWith("~/") ? `${home}${c.slice(1)}` : c));
}

export function escapes(candidate: string): boolean {
  return path.isAbsolute(candidate) || candidate.split("/").includes("..");
}
