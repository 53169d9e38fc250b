/**
 * The statement tree the shell parser builds (parse.ts, words.ts) and the analysis reads
 * (analyze.ts): words with what is known of them before the command runs, assignments,
 * redirections, statements.
 */
import type { Node } from "web-tree-sitter";

/** A line or string the analysis refuses to interpret; the caller answers ask, never allow. */
export class ShellParseError extends Error {
  override name = "ShellParseError";
}

/** How deep statements and words may nest inside one parsed text (subshells, `$(...)`, groups). */
export const MAX_NODE_DEPTH = 200;

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

/** What parsing a line carries along: what `~` stands for, and how to read a word's substitutions. */
export interface Walk {
  /** What `~` and `$HOME` stand for; null when the line may set HOME (they are then not known). */
  home: string | null;
  /** The commands run while a word is expanded (`$(...)`, backticks, `<(...)`), parsed as statements. */
  substitutions(node: Node, depth: number): Stmt[];
}

/** A construct's text, shortened for an error message. */
export function clip(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > 60 ? `${line.slice(0, 60)}...` : line;
}

/** One level deeper, or a parse error past MAX_NODE_DEPTH. */
export function deeper(depth: number): number {
  if (depth + 1 > MAX_NODE_DEPTH) throw new ShellParseError(`nested more than ${MAX_NODE_DEPTH} levels deep`);
  return depth + 1;
}
