/**
 * Shell parsing for the authority layer: loads tree-sitter-bash lazily (first use only; other
 * commands never pay for the wasm) and turns its concrete syntax tree into a small statement
 * tree that `analyze.ts` interprets. Nothing here decides anything: a construct this file does not
 * understand is a {@link ShellParseError}, never a guess.
 */
import { createRequire } from "node:module";
import { homedir } from "node:os";
import type { Node, Parser } from "web-tree-sitter";
import { codeEvaluations } from "./evaluates.js";
import {
  type Assignment,
  clip,
  deeper,
  type Redirect,
  ShellParseError,
  type Stmt,
  type Walk,
  type Word,
} from "./syntax.js";
import { word } from "./words.js";

export {
  type Assignment,
  MAX_NODE_DEPTH,
  type Redirect,
  ShellParseError,
  type Stmt,
  type Word,
} from "./syntax.js";
export { decodeAnsiC } from "./words.js";

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
    const walk: Walk = {
      home: options.home === undefined ? homedir() : options.home,
      substitutions: (node, depth) => substitutions(node, walk, depth),
    };
    const script = sequence(root.children, walk, 0);
    if (script.kind === "seq" && script.items.length === 0) throw new ShellParseError("empty command");
    const evaluations = codeEvaluations(root).map((text): Stmt => ({ kind: "evaluates", text }));
    return evaluations.length === 0 ? script : { kind: "seq", items: [script, ...evaluations] };
  } finally {
    tree.delete();
  }
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
