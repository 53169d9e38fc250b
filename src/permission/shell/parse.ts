/**
 * Shell parsing for the authority layer: loads tree-sitter-bash lazily (first use only; other
 * commands never pay for the wasm) and turns its concrete syntax tree into a small statement
 * tree that `analyze.ts` interprets. Nothing here decides anything: a construct this file does not
 * understand is a {@link ShellParseError}, never a guess.
 */
import { createRequire } from "node:module";
import { homedir } from "node:os";
import type { Node, Parser } from "web-tree-sitter";
import { escapeGlob, hasGlob, unescapeGlob } from "./pattern.js";
import { harmlessVariable } from "./variables.js";

/** A line or string the analysis refuses to interpret; the caller answers ask, never allow. */
export class ShellParseError extends Error {
  override name = "ShellParseError";
}

/** How deep statements and words may nest inside one parsed text (subshells, `$(...)`, groups). */
export const MAX_NODE_DEPTH = 200;
/** Longest text handed to the parser. */
export const MAX_TEXT_LENGTH = 1_000_000;

let loading: Promise<Parser> | undefined;

/** The shared parser, created on first use. A failed load is not cached, so a later call retries. */
export function loadParser(): Promise<Parser> {
  loading ??= (async () => {
    const { Parser, Language } = await import("web-tree-sitter");
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm");
    const language = await Language.load(wasm);
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** One shell word (an argument, a command name, a redirection target), with what is known statically. */
export interface Word {
  /** The word as written, for display and rule matching. */
  text: string;
  /** The word's value after quote removal, when it is fully known before the command runs; else null. */
  value: string | null;
  /** The known leading part of the value (all of it when `value` is not null). */
  prefix: string;
  /** The word contains an unquoted glob or brace expansion: the shell may turn it into other words. */
  expands: boolean;
  /** The word contains an unquoted expansion or substitution: the shell may split it into several words. */
  splits: boolean;
  /**
   * Part of the word is only known when it runs (a variable, a substitution, `~+`), not merely a
   * glob or brace pattern over literal text.
   */
  dynamic?: boolean;
  /** Commands run while the word is expanded (`$(...)`, backticks, `<(...)`), each in its own subshell. */
  subs: Stmt[];
  /** Though not known, the word cannot start with `-` (a path found by `find`). */
  notOption?: boolean;
  /** For a word not known only because input replaces a placeholder: its text with `$BOSUN_INPUT` there. */
  template?: string;
  /** A declaration's `name=(...)` written as a real compound assignment (not text bash reads as one later). */
  array?: boolean;
  /**
   * For a word that expands (a glob or brace pattern) over text known before it runs: the word as
   * a pattern (pattern.ts: quoted characters escaped), for matching against the file system.
   */
  glob?: string;
}

export interface Assignment {
  name: string;
  text: string;
  value: Word | null;
}

export interface Redirect {
  /** The operator as written: `>`, `>>`, `&>`, `&>>`, `>|`, `>&`, `<`, `<&`, `<<`, `<<-`, `<<<`, ... */
  op: string;
  /** The file descriptor written before the operator, if any. */
  fd: string | null;
  /** The target word (null for here-documents and here-strings). */
  target: Word | null;
  /** Commands run while the redirection is performed (substitutions in here-documents and here-strings). */
  subs: Stmt[];
}

export type Stmt =
  /** A simple command: assignments, words, redirections. No words means assignments (or redirections) only. */
  | { kind: "simple"; assigns: Assignment[]; words: Word[]; redirects: Redirect[] }
  /** Statements run one after the other (`;`, newline, `&`). */
  | { kind: "seq"; items: Stmt[] }
  | { kind: "and" | "or"; left: Stmt; right: Stmt }
  /** Each member runs in its own subshell. */
  | { kind: "pipeline"; items: Stmt[] }
  /** Runs in a subshell: `( ... )`, a command run with `&`. */
  | { kind: "subshell"; body: Stmt }
  | { kind: "not"; body: Stmt }
  | { kind: "redirected"; body: Stmt; redirects: Redirect[] }
  | { kind: "if"; clauses: { cond: Stmt; body: Stmt }[]; otherwise: Stmt | null }
  /** while / until / for / select / C-style for: the head runs, then the body zero or more times. */
  | { kind: "loop"; head: Stmt; body: Stmt }
  | { kind: "case"; subject: Stmt; items: Stmt[] }
  /** A function definition: its body is analyzed where it is defined, since it may be called later. */
  | { kind: "function"; name: string; body: Stmt }
  /** Shell-evaluated syntax with no command of its own (`[[ ]]`, `(( ))`, for-lists): only its substitutions run. */
  | { kind: "eval"; subs: Stmt[] }
  /**
   * Syntax where bash may run code hidden in a variable's value: arithmetic on variables
   * (`$(( x ))` runs `a[$(cmd)]` if x holds it), `[[ $n -eq 1 ]]`, `-v`, subscripts and substring
   * offsets with names. Never proven read-only: the analysis reports it as a writing command.
   */
  | { kind: "evaluates"; text: string };

const HOME_VARIABLE = "HOME";

interface Walk {
  /** What `~` and `$HOME` stand for; null when the line may set HOME (they are then not known). */
  home: string | null;
}

export interface ParseOptions {
  /** The home folder `~` and `$HOME` expand to; null: not known (the line may set HOME). Default: the user's. */
  home?: string | null;
}

/**
 * Parses `text` into a statement tree. Throws {@link ShellParseError} for a syntax error (tree-sitter
 * ERROR or MISSING nodes), an empty line, an unsupported construct or too deep nesting.
 */
export function parseShell(parser: Parser, text: string, options: ParseOptions = {}): Stmt {
  if (text.length > MAX_TEXT_LENGTH) throw new ShellParseError(`command longer than ${MAX_TEXT_LENGTH} characters`);
  // tree-sitter-bash reads a carriage return, vertical tab or form feed as a blank (and can then
  // take the rest of the line for a comment); bash does not. Other control characters likewise.
  const control = [...text].find((c) => {
    const code = c.charCodeAt(0);
    return (code < 32 && c !== "\t" && c !== "\n") || code === 127;
  });
  if (control !== undefined) {
    const code = control.charCodeAt(0).toString(16).padStart(4, "0").toUpperCase();
    throw new ShellParseError(`a control character (U+${code}) in the command`);
  }
  // Backticks inside backticks (`` `echo \`cmd\`` ``) are not parsed as the command bash runs.
  if (text.includes("\\`")) throw new ShellParseError("an escaped backtick (nested backtick substitutions)");
  const tree = parser.parse(text);
  if (!tree) throw new ShellParseError("the shell parser returned no tree");
  try {
    const root = tree.rootNode;
    if (root.hasError) throw new ShellParseError(describeError(root));
    const walk: Walk = { home: options.home === undefined ? homedir() : options.home };
    const script = sequence(root.children, walk, 0);
    if (script.kind === "seq" && script.items.length === 0) throw new ShellParseError("empty command");
    const evaluations = codeEvaluations(root).map((text): Stmt => ({ kind: "evaluates", text }));
    return evaluations.length === 0 ? script : { kind: "seq", items: [script, ...evaluations] };
  } finally {
    tree.delete();
  }
}

/** A name in arithmetic: bash evaluates a variable's value as an expression, subscripts and all. */
const ARITHMETIC_NAME = /[A-Za-z_]/;
/** Operators of `test` / `[[ ]]` whose operands bash evaluates as arithmetic, and `-v` (a name, maybe subscripted). */
const TEST_EVALUATES = /(^|\s)-(eq|ne|lt|le|gt|ge|v)(\s|$)/;

/** The texts of every place in the tree where bash may evaluate a variable's value as code (see Stmt "evaluates"). */
function codeEvaluations(root: Node): string[] {
  const found: string[] = [];
  const visit = (node: Node): void => {
    const text = node.text;
    switch (node.type) {
      case "arithmetic_expansion":
      case "c_style_for_statement":
        if (ARITHMETIC_NAME.test(arithmeticBody(text))) found.push(text);
        break;
      case "compound_statement":
        if (node.child(0)?.type === "((" && ARITHMETIC_NAME.test(arithmeticBody(text))) found.push(text);
        break;
      case "test_command":
        if (TEST_EVALUATES.test(text)) found.push(text);
        break;
      case "expansion":
        // Backticks and process substitutions inside `${...}` are not parsed as commands: refuse.
        if (/`|[<>]\(/.test(text)) throw new ShellParseError(`a substitution inside \${...}: ${clip(text)}`);
        if (expansionEvaluates(text)) found.push(text);
        break;
      case "array":
        // `a=([i]=1)`: bash evaluates each unquoted `[...]` key of a compound assignment as arithmetic.
        if (node.namedChildren.some((c) => c !== null && arrayKeyEvaluates(c.text))) found.push(text);
        break;
    }
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return found;
}

/** A parameter name: a variable, a positional parameter or a special one (`${@:x}` takes an offset too). */
const PARAMETER = "(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])";
/** `${name[sub]...`: the subscript, when there is one. */
const SUBSCRIPTED = new RegExp(String.raw`^\$\{#?${PARAMETER}\[([^\]]*)\]`);
/** `${name:off}`, `${name[sub]:off:len}`: a substring (not `:-`, `:=`, `:?`, `:+`). */
const SUBSTRING = new RegExp(String.raw`^\$\{${PARAMETER}(?:\[[^\]]*\])?:(?![-=?+])([^}]*)`);
/** `${name:=word}`, `${name=word}`: assigns the variable when it is unset (or empty). */
const DEFAULT_ASSIGN = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?:?=/;

/**
 * Whether bash evaluates part of a `${...}` expansion as code or assigns through it (verified in
 * bash 5.2 with a marker file): a subscript other than `@`, `*` or a number (`${a[i]}`, `${a["k"]}`:
 * i's value is evaluated as arithmetic, subscripts and all); a substring offset or length with a
 * name, `$` or a substitution (`${s:x}`, `${@:x}`, `${a[0]:$(cmd)}`: the result is evaluated too);
 * indirection `${!x}` (through x's value, subscript and all); any `@` transformation (`@P` runs
 * the value's substitutions as a prompt would; the others are refused with it rather than sorted
 * out one by one); and `${NAME:=w}` / `${NAME=w}` on a variable that changes what later commands do
 * (`${CDPATH:=/tmp}`, `${BASH_ENV:=x}`, `${GLOBIGNORE:=x}`): the same rule as `NAME=w`.
 */
function expansionEvaluates(text: string): boolean {
  const sub = SUBSCRIPTED.exec(text);
  if (sub && !/^\s*([@*]|-?\d+)\s*$/.test(sub[1] as string)) return true;
  const substring = SUBSTRING.exec(text);
  if (substring && /[A-Za-z_$]/.test(arithmeticBody(`((${substring[1]}))`))) return true;
  if (/^\$\{!/.test(text) || /^\$\{[^}]+@[A-Za-z]?\}$/.test(text)) return true;
  const assign = DEFAULT_ASSIGN.exec(text);
  if (assign && (assign[2] !== undefined || !harmlessVariable(assign[1] as string, null))) return true;
  return false;
}

/** An unquoted `[key]=` (or `[key]+=`) element of a compound assignment whose key is not a plain number. */
function arrayKeyEvaluates(element: string): boolean {
  if (!element.startsWith("[")) return false;
  return !/^\[\s*-?\d+\s*\]\+?=/.test(element);
}

/** The expression of `$(( ... ))`, `(( ... ))` or `for (( ... ))`, without its brackets and `$` expansions' own names. */
function arithmeticBody(text: string): string {
  return text
    .replace(/^\$?\(\(|\)\)$/g, "")
    .replace(/^for\s*\(\(|\)\)[\s\S]*$/g, "")
    .replace(/0[xX][0-9a-fA-F]+|\d+#[0-9A-Za-z@_]+/g, "0");
}

function describeError(root: Node): string {
  const bad = findError(root);
  if (!bad) return "syntax error";
  const where = `line ${bad.startPosition.row + 1}, column ${bad.startPosition.column + 1}`;
  if (bad.isMissing) return `syntax error: missing ${JSON.stringify(bad.type)} at ${where}`;
  const near = bad.text.length > 40 ? `${bad.text.slice(0, 40)}...` : bad.text;
  return `syntax error near ${JSON.stringify(near)} at ${where}`;
}

function findError(node: Node): Node | null {
  if (node.type === "ERROR" || node.isMissing) return node;
  for (const child of node.children) {
    if (child && (child.hasError || child.isMissing || child.type === "ERROR")) {
      const found = findError(child);
      if (found) return found;
    }
  }
  return null;
}

function deeper(depth: number): number {
  if (depth + 1 > MAX_NODE_DEPTH) throw new ShellParseError(`nested more than ${MAX_NODE_DEPTH} levels deep`);
  return depth + 1;
}

/** Children nodes that are statements (skipping separators, keywords and comments), `&` making a subshell. */
function sequence(children: (Node | null)[], walk: Walk, depth: number): Stmt {
  const items: Stmt[] = [];
  const nodes = children.filter((c): c is Node => c !== null);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as Node;
    if (!node.isNamed) {
      if (node.type === "&" && items.length > 0) {
        const last = items.pop() as Stmt;
        items.push({ kind: "subshell", body: last });
      }
      continue;
    }
    if (node.type === "comment") continue;
    items.push(statement(node, walk, depth));
  }
  return items.length === 1 ? (items[0] as Stmt) : { kind: "seq", items };
}

const STATEMENT_TYPES = new Set([
  "command",
  "redirected_statement",
  "list",
  "pipeline",
  "subshell",
  "compound_statement",
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
  "function_definition",
  "negated_command",
  "test_command",
  "declaration_command",
  "unset_command",
  "variable_assignment",
  "variable_assignments",
]);

function statement(node: Node, walk: Walk, depth: number): Stmt {
  const d = deeper(depth);
  switch (node.type) {
    case "command":
      return command(node, walk, d);
    case "redirected_statement":
      return redirectedStatement(node, walk, d);
    case "list": {
      const parts = node.namedChildren.filter((c): c is Node => c !== null && c.type !== "comment");
      const op = node.children.find((c) => c && !c.isNamed && (c.type === "&&" || c.type === "||"));
      if (parts.length !== 2 || !op) throw new ShellParseError(`unsupported list: ${clip(node.text)}`);
      return {
        kind: op.type === "&&" ? "and" : "or",
        left: statement(parts[0] as Node, walk, d),
        right: statement(parts[1] as Node, walk, d),
      };
    }
    case "pipeline":
      return {
        kind: "pipeline",
        items: node.namedChildren
          .filter((c): c is Node => c !== null && c.type !== "comment")
          .map((c) => statement(c, walk, d)),
      };
    case "subshell":
      return { kind: "subshell", body: sequence(node.children, walk, d) };
    case "compound_statement": {
      if (node.child(0)?.type === "((") return { kind: "eval", subs: substitutions(node, walk, d) };
      return sequence(node.children, walk, d);
    }
    case "negated_command": {
      const body = node.namedChildren.find((c) => c !== null && c.type !== "comment");
      if (!body) throw new ShellParseError(`unsupported negation: ${clip(node.text)}`);
      return { kind: "not", body: STATEMENT_TYPES.has(body.type) ? statement(body, walk, d) : evalOf(body, walk, d) };
    }
    case "test_command":
      refuseQuotedSubscriptCode(node);
      return { kind: "eval", subs: substitutions(node, walk, d) };
    case "if_statement":
      return ifStatement(node, walk, d);
    case "while_statement":
    case "for_statement":
    case "c_style_for_statement":
      return loop(node, walk, d);
    case "case_statement":
      return caseStatement(node, walk, d);
    case "function_definition": {
      const name = node.childForFieldName("name")?.text ?? "";
      const body = node.childForFieldName("body");
      if (!body) throw new ShellParseError(`function without a body: ${clip(node.text)}`);
      const redirects = node.children
        .filter((c): c is Node => c?.isNamed && isRedirectNode(c))
        .flatMap((c) => redirect(c, walk, d));
      const stmt = statement(body, walk, d);
      return {
        kind: "function",
        name,
        body: redirects.length > 0 ? { kind: "redirected", body: stmt, redirects } : stmt,
      };
    }
    case "declaration_command":
    case "unset_command":
      return declaration(node, walk, d);
    case "variable_assignment":
      return { kind: "simple", assigns: [assignment(node, walk, d)], words: [], redirects: [] };
    case "variable_assignments":
      return {
        kind: "simple",
        assigns: node.namedChildren
          .filter((c): c is Node => c !== null && c.type === "variable_assignment")
          .map((c) => assignment(c, walk, d)),
        words: [],
        redirects: [],
      };
    default:
      throw new ShellParseError(`unsupported shell construct ${node.type}: ${clip(node.text)}`);
  }
}

/**
 * `[[ 'a[$(cmd)]' -eq 1 ]]` runs `cmd`: bash evaluates the quoted text as arithmetic. Such text is
 * not shown to the analysis as a command, so the line is refused.
 */
function refuseQuotedSubscriptCode(node: Node): void {
  const visit = (n: Node): void => {
    if (
      (n.type === "raw_string" || n.type === "string" || n.type === "ansi_c_string") &&
      /\[[^\]]*(\$\(|`)/.test(n.text)
    ) {
      throw new ShellParseError(`quoted text with a command in an array subscript in a test: ${clip(n.text)}`);
    }
    for (const c of n.children) if (c) visit(c);
  };
  visit(node);
}

function evalOf(node: Node, walk: Walk, depth: number): Stmt {
  return { kind: "eval", subs: substitutions(node, walk, depth) };
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > 60 ? `${line.slice(0, 60)}...` : line;
}

function isRedirectNode(node: Node): boolean {
  return node.type === "file_redirect" || node.type === "heredoc_redirect" || node.type === "herestring_redirect";
}

function command(node: Node, walk: Walk, depth: number): Stmt {
  const assigns: Assignment[] = [];
  const words: Word[] = [];
  const redirects: Redirect[] = [];
  const tails: Tail[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child) continue;
    const field = node.fieldNameForChild(i);
    if (child.type === "comment") continue;
    if (child.type === "variable_assignment" && words.length === 0) {
      assigns.push(assignment(child, walk, depth));
    } else if (isRedirectNode(child)) {
      redirects.push(...redirect(child, walk, depth, tails, words));
    } else if (child.type === "command_name") {
      const inner = child.namedChildren.filter((c): c is Node => c !== null);
      if (inner.length !== 1) throw new ShellParseError(`unsupported command name: ${clip(child.text)}`);
      words.push(word(inner[0] as Node, walk, depth));
    } else if (field === "argument" || child.isNamed) {
      words.push(word(child, walk, depth));
    } else {
      throw new ShellParseError(`unsupported token ${JSON.stringify(child.type)} in ${clip(node.text)}`);
    }
  }
  return withTails({ kind: "simple", assigns, words, redirects }, tails, walk, depth);
}

/** What tree-sitter-bash hangs inside a here-document redirection: the rest of the line after `<<EOF`. */
type Tail = { kind: "pipe"; node: Node } | { kind: "list"; op: string; node: Node };

function withTails(stmt: Stmt, tails: Tail[], walk: Walk, depth: number): Stmt {
  let result = stmt;
  for (const tail of tails) {
    if (tail.kind === "pipe") {
      const rest = tail.node.namedChildren
        .filter((c): c is Node => c !== null && c.type !== "comment")
        .map((c) => statement(c, walk, depth));
      result = { kind: "pipeline", items: [result, ...rest] };
    } else {
      result = { kind: tail.op === "&&" ? "and" : "or", left: result, right: statement(tail.node, walk, depth) };
    }
  }
  return result;
}

function redirectedStatement(node: Node, walk: Walk, depth: number): Stmt {
  const body = node.childForFieldName("body");
  const redirects: Redirect[] = [];
  const tails: Tail[] = [];
  const extra: Word[] = [];
  for (const child of node.children) {
    if (child?.isNamed && isRedirectNode(child)) redirects.push(...redirect(child, walk, depth, tails, extra));
  }
  const stmt: Stmt = body ? statement(body, walk, depth) : { kind: "simple", assigns: [], words: [], redirects: [] };
  return withTails(attach(stmt, redirects, extra, node), tails, walk, depth);
}

/**
 * Hangs redirections on the command they belong to. tree-sitter-bash puts `> f` in
 * `a && b > f` or `a | b > f` around the whole list or pipeline; bash applies it to `b` only.
 */
function attach(stmt: Stmt, redirects: Redirect[], extra: Word[], node: Node): Stmt {
  switch (stmt.kind) {
    case "and":
    case "or":
      return { ...stmt, right: attach(stmt.right, redirects, extra, node) };
    case "pipeline": {
      const items = [...stmt.items];
      items.push(attach(items.pop() as Stmt, redirects, extra, node));
      return { kind: "pipeline", items };
    }
    case "not":
      return { kind: "not", body: attach(stmt.body, redirects, extra, node) };
    case "simple":
      // `echo hi > f world`: tree-sitter hangs `world` on the redirection; bash passes it to the command.
      stmt.words.push(...extra);
      stmt.redirects.push(...redirects);
      return stmt;
    default:
      if (extra.length > 0) throw new ShellParseError(`words after a redirection: ${clip(node.text)}`);
      return { kind: "redirected", body: stmt, redirects };
  }
}

function redirect(node: Node, walk: Walk, depth: number, tails: Tail[] = [], extra: Word[] = []): Redirect[] {
  const d = deeper(depth);
  if (node.type === "herestring_redirect") {
    const subs: Stmt[] = [];
    for (const c of node.namedChildren) if (c) subs.push(...substitutions(c, walk, d));
    return [{ op: "<<<", fd: descriptor(node), target: null, subs }];
  }
  if (node.type === "heredoc_redirect") return heredoc(node, walk, d, tails, extra);
  let op = "";
  let target: Word | null = null;
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child) continue;
    const field = node.fieldNameForChild(i);
    if (field === "descriptor") continue;
    if (field === "destination") {
      if (target === null) target = word(child, walk, d);
      else extra.push(word(child, walk, d));
    } else if (!child.isNamed) {
      op += child.type;
    } else {
      throw new ShellParseError(`unsupported redirection: ${clip(node.text)}`);
    }
  }
  return [{ op, fd: descriptor(node), target, subs: [] }];
}

/**
 * A here-document. tree-sitter-bash hangs the rest of the line after `<<EOF` inside this node:
 * further redirections (`cat <<EOF > f`), a pipeline (`cat <<EOF | sh`), a list (`cat <<EOF && x`).
 * Redirections are returned beside the here-document; pipelines and lists become tails.
 */
function heredoc(node: Node, walk: Walk, depth: number, tails: Tail[], extra: Word[]): Redirect[] {
  let op = "<<";
  const subs: Stmt[] = [];
  const more: Redirect[] = [];
  let pendingOp: string | null = null;
  const unsupported = (): ShellParseError => new ShellParseError(`unsupported here-document: ${clip(node.text)}`);
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child) continue;
    const field = node.fieldNameForChild(i);
    if (!child.isNamed) {
      if (child.type === "<<" || child.type === "<<-") op = child.type;
      else if (field === "operator" && (child.type === "&&" || child.type === "||")) pendingOp = child.type;
      else throw unsupported();
      continue;
    }
    if (child.type === "heredoc_start" || child.type === "heredoc_end" || child.type === "comment") continue;
    if (child.type === "heredoc_body") {
      subs.push(...substitutions(child, walk, depth));
    } else if (child.type === "file_redirect" || child.type === "herestring_redirect") {
      more.push(...redirect(child, walk, depth, tails, extra));
    } else if (child.type === "pipeline" && field === null) {
      tails.push({ kind: "pipe", node: child });
    } else if (field === "right" && pendingOp) {
      tails.push({ kind: "list", op: pendingOp, node: child });
      pendingOp = null;
    } else {
      throw unsupported();
    }
  }
  if (pendingOp) throw unsupported();
  return [{ op, fd: descriptor(node), target: null, subs }, ...more];
}

function descriptor(node: Node): string | null {
  return node.childForFieldName("descriptor")?.text ?? null;
}

function ifStatement(node: Node, walk: Walk, depth: number): Stmt {
  const clauses: { cond: Stmt; body: Stmt }[] = [];
  let otherwise: Stmt | null = null;
  // In an `if` or `elif` part, statements before `then` are the condition, statements after it the body.
  const clause = (parts: (Node | null)[]): void => {
    const cond: Node[] = [];
    const body: Node[] = [];
    let target = cond;
    for (const child of parts) {
      if (!child || child.type === "elif_clause" || child.type === "else_clause") continue;
      if (child.type === "then") target = body;
      else if (child.isNamed || child.type === "&") target.push(child);
    }
    clauses.push({ cond: sequence(cond, walk, depth), body: sequence(body, walk, depth) });
  };
  clause(node.children);
  for (const child of node.children) {
    if (child?.type === "elif_clause") clause(child.children);
    else if (child?.type === "else_clause") otherwise = sequence(child.children, walk, depth);
  }
  return { kind: "if", clauses, otherwise };
}

function loop(node: Node, walk: Walk, depth: number): Stmt {
  const head: Stmt[] = [];
  let body: Stmt | null = null;
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child?.isNamed || child.type === "comment") continue;
    const field = node.fieldNameForChild(i);
    if (field === "body") {
      body = child.type === "do_group" ? sequence(child.children, walk, depth) : statement(child, walk, depth);
    } else if (node.type === "while_statement" && field === "condition") {
      head.push(statement(child, walk, depth));
    } else {
      head.push({ kind: "eval", subs: substitutions(child, walk, depth) });
    }
  }
  if (!body) throw new ShellParseError(`loop without a body: ${clip(node.text)}`);
  return { kind: "loop", head: head.length === 1 ? (head[0] as Stmt) : { kind: "seq", items: head }, body };
}

function caseStatement(node: Node, walk: Walk, depth: number): Stmt {
  const subject = node.childForFieldName("value");
  const items: Stmt[] = [];
  for (const child of node.namedChildren) {
    if (child?.type !== "case_item") continue;
    const patterns: Stmt[] = [];
    const body: Node[] = [];
    for (let i = 0; i < child.childCount; i++) {
      const part = child.child(i);
      if (!part?.isNamed || part.type === "comment") continue;
      if (child.fieldNameForChild(i) === "value") patterns.push(...substitutions(part, walk, depth));
      else body.push(part);
    }
    const stmt = sequence(body, walk, depth);
    items.push(patterns.length > 0 ? { kind: "seq", items: [{ kind: "eval", subs: patterns }, stmt] } : stmt);
  }
  return { kind: "case", subject: { kind: "eval", subs: subject ? substitutions(subject, walk, depth) : [] }, items };
}

function declaration(node: Node, walk: Walk, depth: number): Stmt {
  const words: Word[] = [];
  const redirects: Redirect[] = [];
  for (const child of node.children) {
    if (!child || child.type === "comment") continue;
    if (!child.isNamed || child.type === "variable_name") {
      words.push(literalWord(child.text));
    } else if (child.type === "variable_assignment") {
      const a = assignment(child, walk, depth);
      const value = a.value === null ? "" : a.value.value;
      words.push({
        text: a.text,
        value: value === null ? null : `${a.name}=${value}`,
        prefix: `${a.name}=${a.value?.prefix ?? ""}`,
        expands: false,
        splits: false,
        subs: a.value?.subs ?? [],
        ...(child.childForFieldName("value")?.type === "array" ? { array: true } : {}),
      });
    } else if (isRedirectNode(child)) {
      redirects.push(...redirect(child, walk, depth));
    } else {
      words.push(word(child, walk, depth));
    }
  }
  return { kind: "simple", assigns: [], words, redirects };
}

function assignment(node: Node, walk: Walk, depth: number): Assignment {
  const name = node.childForFieldName("name")?.text ?? "";
  const valueNode = node.childForFieldName("value");
  let value: Word | null = null;
  if (valueNode) {
    value = valueNode.type === "array" ? arrayWord(valueNode, walk, depth) : word(valueNode, walk, depth, false);
  }
  return { name, text: node.text, value };
}

function arrayWord(node: Node, walk: Walk, depth: number): Word {
  return {
    text: node.text,
    value: null,
    prefix: "",
    expands: false,
    splits: false,
    subs: substitutions(node, walk, depth),
  };
}

function literalWord(text: string): Word {
  return { text, value: text, prefix: text, expands: false, splits: false, subs: [] };
}

/** Every `$(...)`, backtick and `<(...)` inside `node`, each as the statement it runs. */
export function substitutions(node: Node, walk: Walk, depth: number): Stmt[] {
  const out: Stmt[] = [];
  const visit = (n: Node, d: number): void => {
    if (n.type === "command_substitution" || n.type === "process_substitution") {
      out.push({ kind: "subshell", body: sequence(n.children, walk, deeper(d)) });
      return;
    }
    if (n !== node && STATEMENT_TYPES.has(n.type) && n.type !== "test_command") {
      // A statement inside an expression only appears within a substitution, handled above.
      out.push({ kind: "subshell", body: statement(n, walk, deeper(d)) });
      return;
    }
    for (const c of n.children) if (c) visit(c, deeper(d));
  };
  visit(node, depth);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Words

type Piece =
  /** Text known statically; `raw` as written (unquoted text: with its glob, brace and escape syntax). */
  | { static: string; quoted: boolean; raw: string }
  /** Text only known when the command runs; `split` when unquoted (word splitting applies). */
  | { dynamic: true; split: boolean };

/** Stands for a piece known only when the command runs, inside a word's pattern. */
const DYNAMIC = "\u0000";

function word(node: Node, walk: Walk, depth: number, tilde = true): Word {
  const subs = substitutions(node, walk, depth);
  const pieces: Piece[] = [];
  wordPieces(node, false, walk, pieces);
  let value = "";
  let splits = false;
  let dynamic = false;
  let braces = "";
  // The word as a pattern (pattern.ts): unquoted text as written, quoted text escaped. Glob
  // syntax is looked for in the whole word, not piece by piece: tree-sitter splits `.[e]nv`.
  let pattern = "";
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i] as Piece;
    if ("dynamic" in p) {
      if (p.split) splits = true;
      dynamic = true;
      braces += "\u0000";
      pattern += DYNAMIC;
      continue;
    }
    let text = p.static;
    let raw = p.quoted ? escapeGlob(p.static) : p.raw.replace(/\\\n/g, "");
    if (i === 0 && !p.quoted && tilde && p.raw.startsWith("~")) {
      const expanded = expandTilde(text);
      if (expanded !== text) raw = escapeGlob(walk.home ?? "") + raw.slice(1);
      else if (dynamic) raw = DYNAMIC;
      text = expanded;
    }
    value += text;
    pattern += raw;
    braces += p.quoted ? "\u0000" : p.raw.replace(/\\./gs, "_");
  }
  const globs = hasGlob(pattern.replaceAll(DYNAMIC, ""));
  // Brace expansion `a{b,c}` needs an unquoted `{`, a `,` and a `}` in order; `{1..3}` and
  // `{a..c}` are sequences.
  const brace = /\{[^}]*,[^}]*\}/.test(braces) || /\{(-?\d+\.\.-?\d+|[a-zA-Z]\.\.[a-zA-Z])(\.\.-?\d+)?\}/.test(braces);
  const expands = globs || brace;
  // The known leading part: up to the first piece known only when it runs, the first wildcard,
  // and (when braces expand) the first `{`.
  let end = pattern.length;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === DYNAMIC || (globs && (c === "*" || c === "?" || c === "[")) || (brace && c === "{")) {
      end = i;
      break;
    }
  }
  const prefix = unescapeGlob(pattern.slice(0, end));
  return {
    text: node.text,
    value: expands || dynamic ? null : value,
    prefix,
    expands,
    splits,
    subs,
    ...(dynamic ? { dynamic } : {}),
    ...(expands && !dynamic ? { glob: pattern } : {}),
  };

  function expandTilde(text: string): string {
    if ((text === "~" || text.startsWith("~/")) && walk.home !== null) return walk.home + text.slice(1);
    // `~+` (the working directory), `~-` (the previous one), `~user`, and `~` itself when the line
    // may set HOME: known only when it runs.
    if (text.startsWith("~")) dynamic = true;
    return text;
  }
}

function wordPieces(node: Node, quoted: boolean, walk: Walk, out: Piece[]): void {
  switch (node.type) {
    case "word":
      if (quoted) out.push({ static: node.text, quoted: true, raw: node.text });
      else out.push({ static: unescapeUnquoted(node.text), quoted: false, raw: node.text });
      return;
    case "number":
      out.push({ static: node.text, quoted: true, raw: node.text });
      return;
    case "raw_string":
      out.push({ static: node.text.slice(1, -1), quoted: true, raw: node.text });
      return;
    case "ansi_c_string": {
      const decoded = decodeAnsiC(node.text.slice(2, -1));
      out.push(decoded === null ? { dynamic: true, split: false } : { static: decoded, quoted: true, raw: "" });
      return;
    }
    case "string":
    case "translated_string": {
      let empty = true;
      for (const child of node.children) {
        if (!child) continue;
        if (!child.isNamed) {
          if (child.type === '"' || child.type === '$"') continue;
          empty = false;
          // A `$` not followed by a name is itself (`"5$"`).
          if (child.type === "$") out.push({ static: "$", quoted: true, raw: "$" });
          else out.push({ dynamic: true, split: false });
          continue;
        }
        empty = false;
        if (child.type === "string_content") {
          const text = unescapeDoubleQuoted(child.text);
          out.push({ static: text, quoted: true, raw: text });
        } else {
          wordPieces(child, true, walk, out);
        }
      }
      if (empty) out.push({ static: "", quoted: true, raw: "" });
      return;
    }
    case "concatenation":
      for (const child of node.children) if (child) wordPieces(child, quoted, walk, out);
      return;
    case "process_substitution":
      // `<(cmd)` becomes a pipe's path, /dev/fd/N (its command is analyzed as a substitution).
      out.push({ static: "/dev/fd/63", quoted: true, raw: "" });
      return;
    case "simple_expansion":
    case "expansion":
      if (isHome(node) && walk.home !== null) {
        out.push({ static: walk.home, quoted: true, raw: "" });
        return;
      }
      out.push({ dynamic: true, split: !quoted });
      return;
    default:
      out.push({ dynamic: true, split: !quoted });
  }
}

function isHome(node: Node): boolean {
  const named = node.namedChildren.filter((c): c is Node => c !== null);
  if (named.length !== 1 || named[0]?.type !== "variable_name" || named[0].text !== HOME_VARIABLE) return false;
  // `${HOME}` or `$HOME`, nothing else (no operator, no default value).
  return node.text.replace(/^\$\{(.*)\}$/, "$$$1") === "$HOME";
}

function unescapeUnquoted(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\\" && i + 1 < text.length) {
      const next = text[i + 1] as string;
      i++;
      if (next !== "\n") out += next;
      continue;
    }
    out += c;
  }
  return out;
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/** Decodes the body of `$'...'`; null when it holds an escape this decoder does not know. */
export function decodeAnsiC(body: string): string | null {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const n = body[++i];
    if (n === undefined) return null;
    const simple: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      a: "\u0007",
      b: "\b",
      e: "\u001b",
      E: "\u001b",
      f: "\f",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "?": "?",
    };
    if (n in simple) {
      out += simple[n];
      continue;
    }
    const hex = (max: number): string | null => {
      const m = new RegExp(`^[0-9a-fA-F]{1,${max}}`).exec(body.slice(i + 1));
      if (!m) return null;
      i += m[0].length;
      return String.fromCodePoint(Number.parseInt(m[0], 16));
    };
    if (n === "x") {
      const ch = hex(2);
      if (ch === null) return null;
      out += ch;
    } else if (n === "u") {
      const ch = hex(4);
      if (ch === null) return null;
      out += ch;
    } else if (n === "U") {
      const ch = hex(8);
      if (ch === null) return null;
      out += ch;
    } else if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i)) as RegExpExecArray;
      i += m[0].length - 1;
      out += String.fromCharCode(Number.parseInt(m[0], 8) & 0xff);
    } else if (n === "c") {
      return null;
    } else {
      out += `\\${n}`;
    }
  }
  return out;
}
