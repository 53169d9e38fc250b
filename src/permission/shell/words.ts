/**
 * Shell words: what each one is known to be before the command runs — its value after quote
 * removal, or only its known leading part; whether it may split, expand as a glob or braces, or
 * hold a substitution — from tree-sitter's nodes.
 */
import type { Node } from "web-tree-sitter";
import { escapeGlob, hasGlob, unescapeGlob } from "./pattern.js";
import type { Walk, Word } from "./syntax.js";

const HOME_VARIABLE = "HOME";

type Piece =
  /** Text known statically; `raw` as written (unquoted text: with its glob, brace and escape syntax). */
  | { static: string; quoted: boolean; raw: string }
  /** Text only known when the command runs; `split` when unquoted (word splitting applies). */
  | { dynamic: true; split: boolean };

/** Stands for a piece known only when the command runs, inside a word's pattern. */
const DYNAMIC = "\u0000";

export function word(node: Node, walk: Walk, depth: number, tilde = true): Word {
  const subs = walk.substitutions(node, depth);
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
