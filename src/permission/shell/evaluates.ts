/**
 * Where bash may evaluate a variable's value as code although no command runs there: arithmetic on
 * names, `[[ $n -eq 1 ]]`, subscripts and substring offsets, indirection, `@` transformations,
 * `${NAME:=w}` on a variable that changes later commands. Each found text becomes a statement the
 * analysis never proves read-only (Stmt "evaluates").
 */
import type { Node } from "web-tree-sitter";
import { clip, ShellParseError } from "./syntax.js";
import { harmlessVariable } from "./variables.js";

/** A name in arithmetic: bash evaluates a variable's value as an expression, subscripts and all. */
const ARITHMETIC_NAME = /[A-Za-z_]/;
/** Operators of `test` / `[[ ]]` whose operands bash evaluates as arithmetic, and `-v` (a name, maybe subscripted). */
const TEST_EVALUATES = /(^|\s)-(eq|ne|lt|le|gt|ge|v)(\s|$)/;

/** The texts of every place in the tree where bash may evaluate a variable's value as code (see Stmt "evaluates"). */
export function codeEvaluations(root: Node): string[] {
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
