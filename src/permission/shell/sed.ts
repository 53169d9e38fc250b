/**
 * sed, read for what its script does: the files its `r`/`R` commands read, the files its
 * `w`/`W` commands and `w` flag write, and its `e` command and flag, which run commands.
 */
import { type Inspection, ro, rw } from "./inspection.js";

/**
 * sed. Scripts come from `-e X`, `-eX`, `--expression=X`, `--expression X` (several join with
 * newlines, as GNU sed does), else the first operand; `-f file`/`--file=file` reads a script
 * nobody has read: writing, and it may read or write any file. Every script is read for its
 * file commands (see readSedScript): `r`/`R` files are read requests, `w`/`W` files and the `w`
 * flag are edit requests, `e` and the `e` flag run commands. `-i` edits its input files.
 */
export function sed(name: string, args: string[], risky: boolean[]): Inspection {
  const scripts: string[] = [];
  let explicit = false;
  let inPlace = false;
  const scriptFiles: string[] = [];
  const inputs: number[] = [];
  let i = 0;
  let options = true;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i]) {
      // After `--` only an input file; before it even a later word may be an option (GNU
      // getopt permutes: `sed p f -i` edits f).
      if (!options && explicit) {
        inputs.push(i);
        continue;
      }
      return rw(`${name}: a non-literal argument could be a script or an option`, {
        files: { reads: ["*"], writes: ["*"] },
      });
    }
    if (options && a === "--") {
      options = false;
      continue;
    }
    if (!options || !a.startsWith("-") || a === "-") {
      if (!explicit) {
        scripts.push(a);
        explicit = true;
      } else {
        inputs.push(i);
      }
      continue;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const key = eq >= 0 ? a.slice(0, eq) : a;
      const value = (): string => (eq >= 0 ? a.slice(eq + 1) : (args[++i] ?? ""));
      if (key === "--in-place") inPlace = true;
      else if (key === "--file") {
        explicit = true;
        scriptFiles.push(value());
      } else if (key === "--expression") {
        explicit = true;
        scripts.push(value());
      } else if (key === "--line-length") {
        if (eq < 0) i++;
      } else if (!SED_LONG_FLAGS.has(key)) return rw(`${name}: unknown option ${a}`);
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const c = a[k] as string;
      if (c === "i") {
        // -i[SUFFIX]: the rest of the word is the suffix.
        inPlace = true;
        break;
      }
      if (c === "e" || c === "f" || c === "l") {
        const rest = a.slice(k + 1);
        const value = rest.length > 0 ? rest : (args[++i] ?? "");
        if (c === "e") {
          explicit = true;
          scripts.push(value);
        } else if (c === "f") {
          explicit = true;
          scriptFiles.push(value);
        }
        break;
      }
      if (!"nErsuzb".includes(c)) return rw(`${name}: unknown option -${c}`);
    }
  }
  if (!explicit) return rw(`${name}: no script`);
  const reads: string[] = [];
  const writes: string[] = [];
  const problems: string[] = [];
  if (scriptFiles.length > 0) {
    // The script file is read (a read request), and what it does is not known.
    reads.push(...scriptFiles, "*");
    writes.push("*");
    problems.push("runs a script file nobody has read: it may write files or run commands");
  }
  const script = readSedScript(scripts.join("\n"));
  if (script.problem) problems.push(script.problem);
  reads.push(...script.reads);
  writes.push(...script.writes);
  if (script.writes.length > 0) problems.push("its script writes files (w, W, the w flag of s)");
  if (script.runs) problems.push("its script runs commands (e, the e flag of s)");
  if (inPlace) problems.push("-i edits files in place");
  const files = reads.length > 0 || writes.length > 0 ? { files: { reads, writes } } : {};
  const edited = inPlace ? { writes: inputs.map((k) => k + 1) } : {};
  if (problems.length > 0) return rw(`${name}: ${problems.join("; ")}`, { ...files, ...edited });
  return ro(`${name}: prints edited text (no -i, no w or e commands)`, files);
}

const SED_LONG_FLAGS = new Set([
  "--quiet",
  "--silent",
  "--regexp-extended",
  "--separate",
  "--unbuffered",
  "--null-data",
  "--zero-terminated",
  "--posix",
  "--debug",
  "--sandbox",
  "--follow-symlinks",
  "--binary",
]);

/** What a sed script does besides printing, as far as it could be read. */
export interface SedScript {
  /** The script could not be read (then nothing else here is complete): treated as writing. */
  problem: string | null;
  /** Files `r` and `R` read. */
  reads: string[];
  /** Files `w`, `W` and the `w` flag of `s` write (`/dev/stdout` and `/dev/stderr` left out). */
  writes: string[];
  /** `e` or the `e` flag of `s` runs a command. */
  runs: boolean;
}

/** A problem for sed: what makes a script writing or unreadable, or null (kept for callers that want one answer). */
export function sedScriptProblem(script: string): string | null {
  const read = readSedScript(script);
  if (read.problem) return read.problem;
  if (read.writes.length > 0) return "the w command or the w flag writes a file";
  if (read.runs) return "the e command or the e flag runs a command";
  return null;
}

/**
 * Reads a GNU sed script (commands separated by `;` or newlines, addresses, `!`, `{ }`) well
 * enough to find its file commands. As GNU sed does (checked with sed 4.9): a file name runs to the
 * end of the line, `;` and `}` included (`1r a;p` reads `a;p`); a bracket expression in a regex
 * may hold the delimiter (`s/[/]/x/w f` writes f); blanks may come between `s`'s flags. Anything
 * it cannot read is a problem, never a guess.
 */
export function readSedScript(script: string): SedScript {
  const at = new ScriptCursor(script);
  const out: SedScript = { problem: null, reads: [], writes: [], runs: false };
  const fail = (problem: string): SedScript => ({ ...out, problem });
  while (true) {
    at.skip(/[\s;]/);
    if (at.done()) return out;
    if (at.peek() === "#") {
      at.toLineEnd();
      continue;
    }
    if (!at.address()) return fail("an unreadable address");
    if (at.peek() === ",") {
      at.i++;
      at.skip(/[ \t]/);
      if (!at.address()) return fail("an unreadable address");
    }
    at.skip(/[ \t]/);
    while (at.peek() === "!") at.i++;
    at.skip(/[ \t]/);
    const cmd = at.next();
    if (cmd === undefined) return fail("an address without a command");
    const problem = readCommand(cmd, at, out);
    if (problem) return fail(problem);
  }
}

/**
 * One command, its address already read: what it reads, writes or runs goes into `out`; returns
 * why it cannot be read, or undefined.
 */
function readCommand(cmd: string, at: ScriptCursor, out: SedScript): string | undefined {
  switch (cmd) {
    case "{":
    case "}":
      return undefined;
    case "s":
    case "y":
      return readSubstitution(cmd, at, out);
    case "a":
    case "i":
    case "c":
      at.toLineEnd();
      return undefined;
    case "r":
    case "R": {
      const file = at.fileName();
      if (file !== "" && file !== "/dev/stdin") out.reads.push(file);
      return undefined;
    }
    case "w":
    case "W": {
      const file = at.fileName();
      if (file === "") return `the ${cmd} command without a file name`;
      if (!SED_OUTPUT_DEVICES.has(file)) out.writes.push(file);
      return undefined;
    }
    case "e":
      out.runs = true;
      at.toLineEnd();
      return undefined;
    case "b":
    case "t":
    case "T":
    case ":":
    case "v":
      at.label();
      return undefined;
    case "q":
    case "Q":
    case "l":
    case "L":
      at.skip(/[ \t0-9]/);
      return undefined;
    default:
      return "pPdDnNgGhHxz=F".includes(cmd) ? undefined : `an unknown command ${JSON.stringify(cmd)}`;
  }
}

/** `s` and `y`: their two parts, then `s`'s flags, of which `e` runs the pattern space and `w` writes a file. */
function readSubstitution(cmd: "s" | "y", at: ScriptCursor, out: SedScript): string | undefined {
  const delim = at.next();
  if (delim === undefined || delim === "\\" || delim === "\n") return `an unreadable ${cmd} command`;
  // y has no bracket expressions; s's regex does, its replacement does not.
  if (!at.skipPart(delim, cmd === "s") || !at.skipPart(delim, false)) return `an unreadable ${cmd} command`;
  if (cmd === "y") return undefined;
  while (!at.done() && /[gpiImMe0-9w \t]/.test(at.peek() as string)) {
    if (at.peek() === "e") out.runs = true;
    if (at.peek() === "w") {
      at.i++;
      const file = at.fileName();
      if (file === "") return "the w flag without a file name";
      if (!SED_OUTPUT_DEVICES.has(file)) out.writes.push(file);
      return undefined;
    }
    at.i++;
  }
  return undefined;
}

/** A place in a sed script, with the readers of its parts; each moves past what it read. */
class ScriptCursor {
  i = 0;
  private readonly n: number;
  constructor(private readonly s: string) {
    this.n = s.length;
  }

  done(): boolean {
    return this.i >= this.n;
  }

  peek(): string | undefined {
    return this.s[this.i];
  }

  next(): string | undefined {
    return this.s[this.i++];
  }

  /** Moves past every character `pattern` matches. */
  skip(pattern: RegExp): void {
    while (this.i < this.n && pattern.test(this.s[this.i] as string)) this.i++;
  }

  /** Skips a regex (brackets honored) or, with `brackets` false, a replacement, up to and past `delim`. */
  skipPart(delim: string, brackets: boolean): boolean {
    const s = this.s;
    while (this.i < this.n) {
      const c = s[this.i] as string;
      if (c === "\\") {
        this.i += 2;
        continue;
      }
      if (c === "\n" && brackets) return false;
      if (brackets && c === "[") {
        if (!this.skipBracket()) return false;
        continue;
      }
      this.i++;
      if (c === delim) return true;
    }
    return false;
  }

  /** `[...]`: `]` first (after `^`) is literal; `[:class:]`, `[=x=]`, `[.x.]` inside. */
  private skipBracket(): boolean {
    const s = this.s;
    this.i++;
    if (s[this.i] === "^") this.i++;
    if (s[this.i] === "]") this.i++;
    while (this.i < this.n) {
      const c = s[this.i];
      if (c === "\n") return false;
      if (c === "[" && (s[this.i + 1] === ":" || s[this.i + 1] === "=" || s[this.i + 1] === ".")) {
        const close = s.indexOf(`${s[this.i + 1]}]`, this.i + 2);
        if (close < 0) return false;
        this.i = close + 2;
        continue;
      }
      this.i++;
      if (c === "]") return true;
    }
    return false;
  }

  toLineEnd(): void {
    while (this.i < this.n && this.s[this.i] !== "\n") {
      if (this.s[this.i] === "\\") this.i++;
      this.i++;
    }
  }

  /** A file name: blanks skipped, then everything to the end of the line. */
  fileName(): string {
    this.skip(/[ \t]/);
    const start = this.i;
    while (this.i < this.n && this.s[this.i] !== "\n") this.i++;
    return this.s.slice(start, this.i);
  }

  label(): void {
    while (this.i < this.n && this.s[this.i] !== "\n" && this.s[this.i] !== ";") this.i++;
  }

  address(): boolean {
    const s = this.s;
    const c = s[this.i];
    if (c === undefined) return true;
    if (/[0-9]/.test(c)) {
      this.skip(/[0-9~]/);
      return true;
    }
    if (c === "$") {
      this.i++;
      return true;
    }
    if (c === "/" || c === "\\") {
      const delim = c === "\\" ? s[this.i + 1] : "/";
      this.i += c === "\\" ? 2 : 1;
      if (delim === undefined || delim === "\n" || !this.skipPart(delim, true)) return false;
      this.skip(/[IM]/);
      return true;
    }
    if (c === "+" || c === "~") {
      this.i++;
      this.skip(/[0-9]/);
    }
    return true;
  }
}

/** File names GNU sed's `w` takes for its own output streams. */
const SED_OUTPUT_DEVICES = new Set(["/dev/stdout", "/dev/stderr"]);
