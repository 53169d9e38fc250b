/**
 * Shell analysis for the authority layer: what a shell command line would do, as requests.
 *
 * Every simple command in the line is its own `shell:` request, wherever it hides (lists, pipes,
 * subshells, `$(...)`, backticks, `<(...)`, loop and `if` bodies, function bodies, `bash -c`
 * strings, `eval`, `xargs`, `find -exec`, `sudo`/`timeout`/`nohup`/... wrappers). Redirections and
 * `tee` into files add `edit:` requests; `cd` out of the workspace and path arguments that leave it
 * add `external_directory:` requests. A line that does not parse cleanly is not analyzed at all
 * (`parsed: false`): the caller asks, never allows.
 *
 * The analysis is lexical: it does not touch the file system. Symlinks are resolved by the caller
 * when it matches rules against the returned paths.
 */
import { homedir } from "node:os";
import path from "node:path";
import type { Parser } from "web-tree-sitter";
import { type Cwd, emitShell, finish, type ShellAnalysis, type ShellRequest, type State } from "./analysis-state.js";
import { harmlessVariable, inspectCommand, type Nested, UNKNOWN_REASON } from "./commands.js";
import { ALIAS_VARIABLES, CWD_VARIABLES, GLOB_VARIABLES, type LineEffects, lineEffects } from "./effects.js";
import { type Assignment, loadParser, parseShell, ShellParseError, type Stmt, type Word } from "./parse.js";
import { prefixLength } from "./prefix.js";
import {
  editTarget,
  emitExternal,
  globRead,
  inside,
  NOT_FILES,
  namedFiles,
  pathArguments,
  rawJoin,
  redirect,
  resolveWord,
} from "./targets.js";

export type { ShellAnalysis, ShellRequest } from "./analysis-state.js";
export { classifyCommand } from "./commands.js";

/** How many commands may run inside each other (`bash -c` strings, `eval`, wrappers like `sudo`). */
export const MAX_NESTING = 12;

/** Names whose redefinition makes `cd`, `pushd` and `popd` mean something else. */
const CD_NAMES = new Set(["cd", "pushd", "popd", "builtin", "command"]);

/** Possible working directories after a statement succeeds (`ok`) or fails (`fail`). */
interface Flow {
  ok: Cwd[];
  fail: Cwd[];
}

export async function analyzeShell(
  command: string,
  context: { cwd: string; workspace: string },
): Promise<ShellAnalysis> {
  if (command.trim() === "") return { parsed: false, problem: "empty command", requests: [] };
  let parser: Parser;
  try {
    parser = await loadParser();
  } catch (error) {
    return { parsed: false, problem: `shell parser unavailable: ${(error as Error).message}`, requests: [] };
  }
  const workspace = path.resolve(context.workspace);
  const cwd = path.resolve(workspace, context.cwd);
  try {
    // Names bash reads wherever they are set, however the line spells the setting (`${CDPATH:=x}`,
    // `read POSIXLY_CORRECT`, `export "GLOBIGNORE=x"`): seen in the text itself, quotes removed.
    const bare = command.replace(/['"\\]/g, "");
    // `HOME=/etc; cat ~/passwd` reads /etc/passwd: a HOME that is not only expanded ($HOME,
    // ${HOME...}) makes `~` and `$HOME` unknown.
    const setsHome = /(^|[^$A-Za-z0-9_{])HOME\b/.test(bare);
    const home = (aliasing: boolean): string | null => (aliasing || setsHome ? null : path.resolve(homedir()));
    let script = parseShell(parser, command, { home: home(false) });
    const fresh = (aliasing: boolean): State => ({
      parser,
      workspace,
      home: home(aliasing),
      out: [],
      sinks: [],
      cwdUntracked: aliasing || CWD_VARIABLES.test(bare) || /cdable_vars|autocd|lastpipe/.test(bare),
      aliasing: aliasing || ALIAS_VARIABLES.test(bare) || /expand_aliases/.test(bare),
      wideGlobs: GLOB_VARIABLES.test(bare) || /dotglob|nocaseglob|extglob|globstar|nullglob/.test(bare),
      below: 0,
    });
    let state = fresh(false);
    run(state, script, [cwd], 0);
    if (state.aliasing) {
      // An alias may stand for any command, `cd` included, and bash expands it in text parsed
      // after its definition, which need not come later in the line (`f(){ eval ls; }; alias ls=...; f`).
      // So: the whole line again with the working directory unknown, and no command in it proven
      // read-only or offered for "always" (its name may not be the command that runs).
      state = fresh(true);
      script = parseShell(parser, command, { home: null });
      run(state, script, [cwd], 0);
      for (const request of state.out) {
        if (request.action !== "shell") continue;
        request.readOnly = false;
        delete request.prefix;
        delete request.unclassified;
      }
    }
    return { parsed: true, requests: dedupe(state.out), ...(state.wideGlobs ? { wideGlobs: true } : {}) };
  } catch (error) {
    if (error instanceof ShellParseError) return { parsed: false, problem: error.message, requests: [] };
    throw error;
  }
}

function dedupe(requests: ShellRequest[]): ShellRequest[] {
  const seen = new Set<string>();
  const out: ShellRequest[] = [];
  for (const r of requests) {
    const key = `${r.action}\u0000${r.resource}\u0000${r.readOnly}\u0000${r.glob}\u0000${r.operands?.join("\u0000") ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  return out;
}

function union(...lists: Cwd[][]): Cwd[] {
  return [...new Set(lists.flat())];
}

function same(cwds: Cwd[]): Flow {
  return { ok: cwds, fail: cwds };
}

// ---------------------------------------------------------------------------------------------
// Statements

function run(state: State, stmt: Stmt, cwds: Cwd[], depth: number): Flow {
  switch (stmt.kind) {
    case "simple":
      return simple(state, stmt, cwds, depth);
    case "seq": {
      let cur = cwds;
      let last: Flow = same(cwds);
      for (const item of stmt.items) {
        last = run(state, item, cur, depth);
        cur = union(last.ok, last.fail);
      }
      return last;
    }
    case "and": {
      const left = run(state, stmt.left, cwds, depth);
      const right = run(state, stmt.right, left.ok, depth);
      return { ok: right.ok, fail: union(left.fail, right.fail) };
    }
    case "or": {
      const left = run(state, stmt.left, cwds, depth);
      const right = run(state, stmt.right, left.fail, depth);
      return { ok: union(left.ok, right.ok), fail: right.fail };
    }
    case "pipeline":
      for (const item of stmt.items) run(state, item, cwds, depth);
      return same(cwds);
    case "subshell":
      run(state, stmt.body, cwds, depth);
      return same(cwds);
    case "not": {
      const inner = run(state, stmt.body, cwds, depth);
      return { ok: inner.fail, fail: inner.ok };
    }
    case "redirected": {
      const flow = run(state, stmt.body, cwds, depth);
      for (const r of stmt.redirects) redirect(state, r, cwds, (sub) => run(state, sub, cwds, depth));
      return flow;
    }
    case "if": {
      let cur = cwds;
      const ends: Cwd[][] = [];
      for (const clause of stmt.clauses) {
        const cond = run(state, clause.cond, cur, depth);
        const body = run(state, clause.body, cond.ok, depth);
        ends.push(body.ok, body.fail);
        cur = cond.fail;
      }
      if (stmt.otherwise) {
        const other = run(state, stmt.otherwise, cur, depth);
        ends.push(other.ok, other.fail);
      } else {
        ends.push(cur);
      }
      return same(union(...ends));
    }
    case "loop": {
      // The head runs, then the body zero or more times. A body that changes directory is run
      // again from every directory seen, with an unknown one added: later paths may be anywhere.
      const once = (from: Cwd[]): Cwd[] => {
        const head = run(state, stmt.head, from, depth);
        const body = run(state, stmt.body, union(head.ok, head.fail), depth);
        return union(from, head.ok, head.fail, body.ok, body.fail);
      };
      const first = once(cwds);
      if (first.length === cwds.length) return same(first);
      return same(once(union(first, [null])));
    }
    case "case": {
      run(state, stmt.subject, cwds, depth);
      const ends: Cwd[][] = [cwds];
      for (const item of stmt.items) {
        const flow = run(state, item, cwds, depth);
        ends.push(flow.ok, flow.fail);
      }
      return same(union(...ends));
    }
    case "function": {
      // Analyzed where it is defined: it may be called later in the line. One that changes the
      // directory (`f(){ cd /tmp; }`) may do so wherever it is called: from here on it is not known.
      const body = run(state, stmt.body, cwds, depth);
      const moves = union(body.ok, body.fail).some((c) => !cwds.includes(c));
      if (CD_NAMES.has(stmt.name) || moves) {
        state.cwdUntracked = true;
        return same([null]);
      }
      return same(cwds);
    }
    case "eval":
      for (const sub of stmt.subs) run(state, sub, cwds, depth);
      return same(cwds);
    case "evaluates":
      // Code may hide in a variable's value here: never proven read-only.
      emitShell(state, stmt.text, false);
      return same(cwds);
  }
}

function simple(state: State, stmt: Extract<Stmt, { kind: "simple" }>, cwds: Cwd[], depth: number): Flow {
  let flow = same(cwds);
  if (stmt.words.length > 0) {
    flow = command(state, stmt.assigns, stmt.words, cwds, depth);
  } else if (stmt.assigns.length > 0) {
    applyEffects(
      state,
      lineEffects(
        [],
        [],
        stmt.assigns.map((a) => a.text),
      ),
    );
    if (state.cwdUntracked) flow = same([null]);
    const readOnly = stmt.assigns.every((a) => harmlessVariable(a.name, a.value?.value ?? null));
    emitShell(state, stmt.assigns.map((a) => a.text).join(" "), readOnly);
  }
  for (const a of stmt.assigns) for (const sub of a.value?.subs ?? []) run(state, sub, cwds, depth);
  for (const w of stmt.words) for (const sub of w.subs) run(state, sub, cwds, depth);
  for (const r of stmt.redirects) redirect(state, r, cwds, (sub) => run(state, sub, cwds, depth));
  pathArguments(state, stmt.words, cwds);
  return flow;
}

// ---------------------------------------------------------------------------------------------
// Commands

const DECLARATIONS = new Set(["declare", "typeset", "local", "export", "readonly"]);

/**
 * A declaration's `name=value` word whose value is not plain literal text: unknown before it runs,
 * or quoted text starting with `(` that bash reads as a compound assignment (see commands.ts `declaration`).
 */
function compoundValue(word: Word): boolean {
  if (word.array) return false;
  const name = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
  if (word.value === null) return name.test(word.prefix);
  const m = name.exec(word.value);
  return m !== null && word.value.slice(m[0].length).startsWith("(");
}

/** A word the shell may turn into an option or into several words: its value is not to be trusted. */
function risky(word: Word): boolean {
  if (word.splits) return true;
  if (word.value !== null || word.notOption) return false;
  return word.prefix.length === 0 || word.prefix.startsWith("-");
}

function applyEffects(state: State, effects: LineEffects): void {
  if (effects.aliases || effects.opaque) state.aliasing = true;
  if (effects.globs || effects.opaque) state.wideGlobs = true;
  if (effects.cwd || effects.opaque) state.cwdUntracked = true;
}

/** Words that are shell syntax where a command name should be: a misread construct, never a program. */
const RESERVED_WORDS = new Set([
  "{",
  "}",
  "!",
  "[[",
  "]]",
  "case",
  "do",
  "done",
  "elif",
  "else",
  "esac",
  "fi",
  "for",
  "function",
  "if",
  "in",
  "select",
  "then",
  "until",
  "while",
  "coproc",
]);

/** Wrappers that are shell keywords: what follows them is shell syntax, not a program's arguments. */
const KEYWORD_WRAPPERS = new Set(["time"]);

/**
 * One simple command with words: its own `shell:` request, then whatever it runs (wrappers,
 * `bash -c`, `xargs`, `find -exec`), then the files it writes. Returns how it changes the
 * working directory. `syntax` is false for a program another one runs (`sudo {` runs a program named `{`).
 */
function command(
  state: State,
  assigns: Assignment[],
  words: Word[],
  cwds: Cwd[],
  depth: number,
  syntax = true,
  appends = false,
): Flow {
  if (depth > MAX_NESTING) throw new ShellParseError(`commands nested more than ${MAX_NESTING} levels deep`);
  const resource = [...assigns.map((a) => a.text), ...words.map((w) => w.text)].join(" ");
  const request: ShellRequest = { action: "shell", resource, readOnly: false };
  state.out.push(request);
  const name = words[0] as Word;
  const prefix = commandPrefix(assigns, words);
  if (prefix !== undefined) request.prefix = prefix;
  const operands = literalOperands(words, cwds);
  if (operands.length > 0) request.operands = operands;
  if (name.value === null || !NOT_FILES.has(name.value)) {
    for (const word of words.slice(1)) globRead(state, word, cwds);
  }
  if (syntax && name.value !== null && name.text === name.value && RESERVED_WORDS.has(name.value)) {
    // tree-sitter-bash reads `time { rm x; }` or a stray `fi` as a command named `{` or `fi`.
    throw new ShellParseError(`unsupported shell syntax: ${JSON.stringify(name.value)} where a command should be`);
  }
  if (name.value === null || name.splits) {
    // `$cmd x` may be `cd`, `eval`, `alias`, `shopt`: nothing about the rest of the line is known.
    applyEffects(state, lineEffects(["$"], [true]));
    finish(state, request, false);
    return same([null]);
  }

  const argv = words.map((w) => w.value ?? w.text);
  const flags = words.map(risky);
  if (DECLARATIONS.has(name.value)) {
    for (let i = 1; i < words.length; i++) flags[i] ||= compoundValue(words[i] as Word);
  }
  // `xargs cmd` appends input words: unknown arguments that may be options (`-delete`).
  const info = appends ? inspectCommand([...argv, ""], [...flags, true]) : inspectCommand(argv, flags);
  applyEffects(
    state,
    lineEffects(
      words.map((w) => w.value ?? w.prefix),
      flags,
      assigns.map((a) => a.text),
    ),
  );
  let readOnly = info.readOnly && assigns.every((a) => harmlessVariable(a.name, a.value?.value ?? null));
  if (info.reason === UNKNOWN_REASON && info.nested.length === 0) request.unclassified = true;
  if (info.nested.length > 0) {
    const sink = { readOnly: true };
    state.sinks.push(sink);
    try {
      for (const nested of info.nested) runNested(state, nested, words, cwds, depth);
    } finally {
      state.sinks.pop();
    }
    if (info.transparent) readOnly &&= sink.readOnly;
  }
  finish(state, request, readOnly);
  if (readOnly && /(^|\/)git$/.test(name.value)) request.gitDirs = state.below > 0 ? ["*"] : gitDirs(words, cwds);
  // `xargs cat`: the words it appends come from its input, and may name any file.
  if (appends && !NOT_FILES.has(name.value)) {
    state.out.push({ action: "read", resource: "*" });
    emitExternal(state, "*");
  }
  for (const index of info.writes) {
    const target = words[index];
    if (target) editTarget(state, target, cwds);
  }
  if (info.files) namedFiles(state, request, info.files, cwds);
  return directoryChange(state, argv, words, cwds);
}

/** Where `git [-C dir]... sub` runs: every known cwd with each `-C` applied in turn (`*` when not known). */
function gitDirs(words: Word[], cwds: Cwd[]): string[] {
  let dirs: Cwd[] = cwds;
  for (let i = 1; i < words.length; i++) {
    const value = words[i]?.value;
    if (value === "-C") {
      const dir = words[i + 1] as Word | undefined;
      dirs = dirs.map((c) => (dir ? resolveWord(dir, c) : null));
      i++;
    } else if (value === "-c") {
      i++;
    } else if (value === null || value === undefined || !value.startsWith("-")) {
      break;
    }
  }
  return [...new Set(dirs.map((d) => d ?? "*"))];
}

/**
 * The words an "always" for this command covers: the command name and its subcommand words
 * (prefix.ts), as written. None when an assignment comes first (`PAGER=x git log`) or a prefix
 * word is not known before the command runs: such a command is approved once at a time.
 */
function commandPrefix(assigns: Assignment[], words: Word[]): string | undefined {
  if (assigns.length > 0) return undefined;
  const argv = words.map((w) => w.value ?? "");
  const length = prefixLength(argv);
  const head = words.slice(0, length);
  if (head.length === 0 || head.some((w) => w.value === null || w.splits || w.expands)) return undefined;
  return head.map((w) => w.text).join(" ");
}

/** Literal arguments that are not options (and values after `=`), resolved against every known cwd. */
function literalOperands(words: Word[], cwds: Cwd[]): string[] {
  const out = new Set<string>();
  for (const word of words.slice(1)) {
    if (word.value === null || word.value === "" || word.value === "-") continue;
    const candidates = word.value.startsWith("-") ? [] : [word.value];
    const eq = word.value.indexOf("=");
    if (eq > 0 && eq < word.value.length - 1) candidates.push(word.value.slice(eq + 1));
    // A value glued to a short option: `-fdata.txt`, `-alink/secret.txt`.
    if (/^-[A-Za-z]./.test(word.value) && !word.value.startsWith("--")) candidates.push(word.value.slice(2));
    for (const candidate of candidates) {
      if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(candidate) || candidate.includes("\0")) continue;
      for (const cwd of cwds) {
        const file = rawJoin(cwd, candidate);
        if (file !== null) out.add(file);
      }
    }
  }
  return [...out];
}

function runNested(state: State, nested: Nested, words: Word[], cwds: Cwd[], depth: number): void {
  if (nested.kind === "argv") {
    const inner = words.slice(nested.from, nested.to);
    const assigns: Assignment[] = inner.slice(0, nested.assigns).map((w) => {
      const text = w.value ?? w.text;
      const eq = text.indexOf("=");
      return {
        name: text.slice(0, eq),
        text: w.text,
        value: { ...w, value: w.value === null ? null : text.slice(eq + 1) },
      };
    });
    const placeholder = nested.placeholder;
    const rest = inner.slice(nested.assigns).map((w) => (placeholder ? replaced(w, placeholder) : w));
    if (rest.length === 0) return;
    let innerCwds = cwds;
    if (nested.cwd !== undefined) {
      const dir = words[nested.cwd];
      innerCwds = dir ? cwds.map((c) => resolveWord(dir, c)) : [null];
    }
    if (nested.below) state.below++;
    try {
      command(state, assigns, rest, innerCwds, depth + 1, KEYWORD_WRAPPERS.has(words[0]?.value ?? ""), nested.appends);
    } finally {
      if (nested.below) state.below--;
    }
    return;
  }
  const parts = words.slice(nested.from, nested.to);
  if (parts.length === 0) return;
  if (parts.some((w) => w.value === null && w.template === undefined)) {
    // `bash -c "$X"`, `eval "$(curl x)"`: the text is only known when it runs. Run by this
    // shell (`eval`), it may also define aliases, functions named cd, glob options.
    for (const sink of state.sinks) sink.readOnly = false;
    if (nested.current) applyEffects(state, lineEffects(["$"], [true]));
    return;
  }
  if (parts.some((w) => w.value === null)) {
    // `find -exec sh -c 'cat {}'`: input is spliced into the text, so it can hold any command.
    // Analyze the text with an unknown word in its place, and never call the result read-only.
    for (const sink of state.sinks) sink.readOnly = false;
  }
  let text = parts.map((w) => w.value ?? (w.template as string)).join(" ");
  if (nested.afterEquals) text = text.slice(text.indexOf("=") + 1);
  if (text.trim() === "") return;
  if (depth + 1 > MAX_NESTING) throw new ShellParseError(`commands nested more than ${MAX_NESTING} levels deep`);
  let script: Stmt;
  try {
    script = parseShell(state.parser, text, { home: state.home });
  } catch (error) {
    if (error instanceof ShellParseError) {
      const owner = words[0]?.value ?? "command";
      throw new ShellParseError(`in the text run by ${owner}: ${error.message}`);
    }
    throw error;
  }
  run(state, script, cwds, depth + 1);
}

/**
 * A word of a command run by `find -exec` or `xargs -I`, with its placeholder (`{}`) replaced by
 * input: unknown from the placeholder on. A found path is never an option; xargs input may be.
 */
function replaced(word: Word, placeholder: { text: string; pathOnly: boolean }): Word {
  const value = word.value;
  if (value === null || !value.includes(placeholder.text)) return word;
  const at = value.indexOf(placeholder.text);
  return {
    ...word,
    value: null,
    prefix: value.slice(0, at),
    notOption: placeholder.pathOnly || (at > 0 && !value.startsWith("-")),
    template: value.split(placeholder.text).join("$BOSUN_INPUT"),
  };
}

/** Whether a command changes what `cd` means or runs a cd at another time: an alias, shopt, CDPATH, a trap. */
function changesCd(argv: string[]): boolean {
  const [name, ...args] = argv;
  if (name === "alias") return args.some((a) => CD_NAMES.has(a.split("=")[0] ?? ""));
  if (name === "shopt") return args.some((a) => a === "cdable_vars" || a === "autocd");
  if (name === "trap") return args.some((a) => /\b(cd|pushd|popd)\b/.test(a));
  if (name === "export" || name === "declare" || name === "typeset" || name === "local" || name === "readonly") {
    return args.some((a) => a.startsWith("CDPATH"));
  }
  return false;
}

/** `cd` / `pushd` / `popd` (also behind `builtin` or `command`): the directories that follow. */
function directoryChange(state: State, argv: string[], words: Word[], cwds: Cwd[]): Flow {
  if (changesCd(argv)) state.cwdUntracked = true;
  if (state.cwdUntracked) return same([null]);
  let at = 0;
  while (argv[at] === "builtin" || (argv[at] === "command" && argv[at + 1] !== "-v" && argv[at + 1] !== "-V")) {
    at++;
    if (argv[at] === "-p") at++;
  }
  const name = argv[at];
  if (name === "popd") return { ok: [null], fail: cwds };
  if (name !== "cd" && name !== "pushd") return same(cwds);
  let i = at + 1;
  while (i < argv.length && /^-[LPe@]+$/.test(argv[i] as string)) i++;
  if (argv[i] === "--") i++;
  const target = words[i];
  let next: Cwd[];
  if (!target) {
    next = name === "cd" && state.home !== null ? [state.home] : [null];
  } else if (target.value === null || target.value === "-" || (name === "pushd" && /^[+-]\d+$/.test(target.value))) {
    next = [null];
  } else {
    next = union(cwds.map((c) => resolveWord(target, c)));
  }
  for (const dir of next) {
    if (dir === null) {
      if (!target || target.value === null || !path.isAbsolute(target.value)) {
        if (target?.value === null || target?.value === "-" || name === "pushd") emitExternal(state, "*");
      }
    } else if (!inside(state.workspace, dir)) {
      emitExternal(state, dir);
    }
  }
  return { ok: next, fail: cwds };
}
