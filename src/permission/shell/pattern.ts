/**
 * bash's pathname patterns as text: a word's pattern is its text with quoted characters escaped
 * by a backslash (`'.e'*` is `\.e*`), so one string says both what is literal and what is a
 * wildcard. Pure: brace expansion and the translation of one path segment into a regular
 * expression. glob.ts matches patterns against the file system.
 */

/**
 * At most this many words per operand, from brace expansion and from matching files. Each match
 * becomes a read request, resolved through links and recorded with the decision (and shown at a
 * prompt); past this the record is unreadable and the cost (a few stat calls per match) reaches
 * tens of milliseconds. Past it the operand counts as any file.
 */
export const GLOB_MATCH_LIMIT = 1000;

/** Longest pattern read (PATH_MAX): past it, the operand counts as any file. */
export const MAX_PATTERN_LENGTH = 4096;

/** Characters that mean something in a pattern, a brace expansion or an extended pattern. */
const SPECIAL = /[\\*?[\]{},()|@!+]/g;

/** Text as a pattern that matches exactly it. */
export function escapeGlob(text: string): string {
  return text.replace(SPECIAL, "\\$&");
}

/** A pattern's literal text (backslashes removed). */
export function unescapeGlob(pattern: string): string {
  return pattern.replace(/\\(.)/gs, "$1");
}

/** Unescaped `*`, `?`, or `[` with a later `]`: pathname expansion may replace the word. */
export function hasGlob(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "*" || c === "?") return true;
    if (c === "[" && text.indexOf("]", i + 1) > 0) return true;
  }
  return false;
}

/** Unescaped `?(`, `*(`, `+(`, `@(`, `!(`: an extended pattern when `shopt -s extglob` is on. */
export function hasExtglob(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if ("?*+@!".includes(c as string) && text[i + 1] === "(") return true;
  }
  return false;
}

/** The index of the first unescaped character of `chars` in `text`, or -1. */
function unescapedIndex(text: string, chars: string, from = 0): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\\") {
      i++;
      continue;
    }
    if (chars.includes(c)) return i;
  }
  return -1;
}

/** `{a..e}`, `{1..10}`, `{01..10..2}`: the words of a sequence expression, or null when it is not one. */
function sequence(body: string, limit: number): string[] | null {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
  const letters = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/.exec(body);
  const m = numeric ?? letters;
  if (!m) return null;
  const from = numeric ? Number(m[1]) : (m[1] as string).charCodeAt(0);
  const to = numeric ? Number(m[2]) : (m[2] as string).charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  if (count > limit) throw new RangeError("too many words");
  // `{01..10}`: a leading zero on either end pads every word to the longer one.
  const padded = numeric && (/^-?0\d/.test(m[1] as string) || /^-?0\d/.test(m[2] as string));
  const width = padded ? Math.max((m[1] as string).length, (m[2] as string).length) : 0;
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const n = from + (to >= from ? k * step : -k * step);
    out.push(numeric ? (width > 0 ? String(n).padStart(width, "0") : String(n)) : escapeGlob(String.fromCharCode(n)));
  }
  return out;
}

/**
 * bash's brace expansion of a pattern: `{a,b}`, nested `{a,{b,c}}`, sequences `{1..3}`; escaped
 * braces and commas are literal, `{}` and `{x}` are not expansions. Throws RangeError past
 * `limit` words.
 */
export function expandBraces(pattern: string, limit: number): string[] {
  // Longer than a path can be: not worth the quadratic search for braces (and it names no file).
  if (pattern.length > MAX_PATTERN_LENGTH) throw new RangeError("pattern too long");
  for (let open = unescapedIndex(pattern, "{"); open >= 0; open = unescapedIndex(pattern, "{", open + 1)) {
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let i = open; i < pattern.length; i++) {
      const c = pattern[i];
      if (c === "\\") {
        i++;
        continue;
      }
      if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        close = i;
        break;
      } else if (c === "," && depth === 1) commas.push(i);
    }
    if (close < 0) return [pattern];
    const head = pattern.slice(0, open);
    const tail = pattern.slice(close + 1);
    let parts: string[] | null = null;
    if (commas.length > 0) {
      parts = [];
      let start = open + 1;
      for (const comma of [...commas, close]) {
        parts.push(pattern.slice(start, comma));
        start = comma + 1;
      }
    } else {
      parts = sequence(pattern.slice(open + 1, close), limit);
    }
    if (parts === null) continue;
    const out: string[] = [];
    for (const part of parts) {
      for (const word of expandBraces(`${head}${part}${tail}`, limit)) {
        out.push(word);
        if (out.length > limit) throw new RangeError("too many words");
      }
    }
    return out;
  }
  return [pattern];
}

/** POSIX character classes inside brackets, as regular expression ranges. */
const CLASSES: Record<string, string> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: "\\s",
  blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~",
  xdigit: "0-9A-Fa-f",
  cntrl: "\\x00-\\x1f\\x7f",
  print: "\\x20-\\x7e",
  graph: "\\x21-\\x7e",
  word: "\\w",
};

const regexEscape = (c: string): string => c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

type Token = { kind: "char"; char: string } | { kind: "any" } | { kind: "star" } | { kind: "set"; set: RegExp };

/**
 * Whether a name matches one path segment of a pattern (no `/`). Linear-time for `*`, `?`,
 * brackets and literal text (the classic two-pointer match, O(name × pattern)): a pattern the
 * model writes must not make bosun backtrack for ever (`*a*a*a…b`). Extended patterns (only read
 * when `extglob`) go through a regular expression (see segmentRegex).
 */
export function segmentMatcher(
  segment: string,
  options: { extglob: boolean; nocase: boolean },
): (name: string) => boolean {
  if (options.extglob && hasExtglob(segment)) {
    const regex = segmentRegex(segment, options);
    return (name) => regex.test(name);
  }
  const tokens: Token[] = [];
  for (let i = 0; i < segment.length; ) {
    const c = segment[i] as string;
    if (c === "\\") {
      tokens.push({ kind: "char", char: segment[i + 1] ?? "\\" });
      i += 2;
    } else if (c === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
      i++;
    } else if (c === "?") {
      tokens.push({ kind: "any" });
      i++;
    } else {
      const bracket = c === "[" ? bracketExpression(segment, i) : null;
      if (bracket) {
        tokens.push({ kind: "set", set: new RegExp(`^${bracket.regex}$`, options.nocase ? "si" : "s") });
        i = bracket.end;
      } else {
        tokens.push({ kind: "char", char: c });
        i++;
      }
    }
  }
  const fold = (text: string): string => (options.nocase ? text.toLowerCase() : text);
  const one = (token: Token, char: string): boolean =>
    token.kind === "any" ||
    (token.kind === "char" ? fold(token.char) === fold(char) : token.kind === "set" && token.set.test(char));
  return (name) => {
    const chars = Array.from(name);
    let t = 0;
    let n = 0;
    let starT = -1;
    let starN = 0;
    while (n < chars.length) {
      const token = tokens[t];
      if (token && token.kind !== "star" && one(token, chars[n] as string)) {
        t++;
        n++;
      } else if (token?.kind === "star") {
        starT = t++;
        starN = n;
      } else if (starT >= 0) {
        t = starT + 1;
        n = ++starN;
      } else {
        return false;
      }
    }
    while (tokens[t]?.kind === "star") t++;
    return t === tokens.length;
  };
}

/**
 * One path segment of a pattern (no `/`) as a regular expression over a name, for extended
 * patterns (segmentMatcher reads the rest without one). `extglob` reads
 * `?(a|b)`, `*(...)`, `+(...)`, `@(...)` as bash does and `!(...)` as anything (wider than bash,
 * never narrower). A bracket expression bosun cannot translate exactly (`[[=e=]]`, `[[.x.]]`, an
 * unknown class) matches any one character.
 */
export function segmentRegex(segment: string, options: { extglob: boolean; nocase: boolean }): RegExp {
  let i = 0;
  const body = (stop: string): string => {
    let out = "";
    while (i < segment.length) {
      const c = segment[i] as string;
      if (stop.includes(c)) return out;
      if (c === "\\") {
        out += regexEscape(segment[i + 1] ?? "\\");
        i += 2;
        continue;
      }
      if (options.extglob && "?*+@!".includes(c) && segment[i + 1] === "(") {
        i += 2;
        const alternatives: string[] = [body("|)")];
        while (segment[i] === "|") {
          i++;
          alternatives.push(body("|)"));
        }
        i++; // the closing )
        const group = `(?:${alternatives.join("|")})`;
        out += c === "?" ? `${group}?` : c === "*" ? `${group}*` : c === "+" ? `${group}+` : c === "@" ? group : ".*";
        continue;
      }
      if (c === "*") {
        if (!out.endsWith(".*")) out += ".*";
        i++;
        continue;
      }
      if (c === "?") {
        out += ".";
        i++;
        continue;
      }
      if (c === "[") {
        const bracket = bracketExpression(segment, i);
        if (bracket) {
          out += bracket.regex;
          i = bracket.end;
          continue;
        }
      }
      out += regexEscape(c);
      i++;
    }
    return out;
  };
  return new RegExp(`^${body("")}$`, options.nocase ? "si" : "s");
}

/** `[...]` starting at `start`: its regular expression and where it ends, or null when it is a literal `[`. */
function bracketExpression(segment: string, start: number): { regex: string; end: number } | null {
  let i = start + 1;
  let negate = false;
  if (segment[i] === "!" || segment[i] === "^") {
    negate = true;
    i++;
  }
  let members = "";
  let exact = true;
  let first = true;
  while (i < segment.length) {
    const c = segment[i] as string;
    if (c === "]" && !first) {
      const set = exact ? members : "\\s\\S";
      if (set === "") return null;
      return { regex: negate ? (exact ? `[^${set}]` : ".") : `[${set}]`, end: i + 1 };
    }
    first = false;
    if (c === "[" && (segment[i + 1] === ":" || segment[i + 1] === "=" || segment[i + 1] === ".")) {
      const kind = segment[i + 1] as string;
      const close = segment.indexOf(`${kind}]`, i + 2);
      if (close < 0) return null;
      const name = segment.slice(i + 2, close);
      const known = kind === ":" ? CLASSES[name] : undefined;
      if (known) members += known;
      else exact = false;
      i = close + 2;
      continue;
    }
    let ch = c;
    if (c === "\\") {
      ch = segment[i + 1] ?? "\\";
      i++;
    }
    i++;
    if (segment[i] === "-" && segment[i + 1] !== undefined && segment[i + 1] !== "]") {
      let to = segment[i + 1] as string;
      i += 2;
      if (to === "\\") {
        to = segment[i] ?? "\\";
        i++;
      }
      // A reversed range (`[z-a]`): both ends, wider than bash (which matches neither).
      members += to < ch ? `${regexEscape(ch)}${regexEscape(to)}` : `${regexEscape(ch)}-${regexEscape(to)}`;
      continue;
    }
    members += regexEscape(ch);
  }
  return null;
}
