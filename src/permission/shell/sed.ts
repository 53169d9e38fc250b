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
  const s = script;
  const out: SedScript = { problem: null, reads: [], writes: [], runs: false };
  let i = 0;
  const n = s.length;
  const fail = (problem: string): SedScript => ({ ...out, problem });
  /** Skips a regex (brackets honored) or, with `brackets` false, a replacement, up to and past `delim`. */
  const skipPart = (delim: string, brackets: boolean): boolean => {
    while (i < n) {
      const c = s[i] as string;
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "\n" && brackets) return false;
      if (brackets && c === "[") {
        if (!skipBracket()) return false;
        continue;
      }
      i++;
      if (c === delim) return true;
    }
    return false;
  };
  /** `[...]`: `]` first (after `^`) is literal; `[:class:]`, `[=x=]`, `[.x.]` inside. */
  const skipBracket = (): boolean => {
    i++;
    if (s[i] === "^") i++;
    if (s[i] === "]") i++;
    while (i < n) {
      const c = s[i];
      if (c === "\n") return false;
      if (c === "[" && (s[i + 1] === ":" || s[i + 1] === "=" || s[i + 1] === ".")) {
        const close = s.indexOf(`${s[i + 1]}]`, i + 2);
        if (close < 0) return false;
        i = close + 2;
        continue;
      }
      i++;
      if (c === "]") return true;
    }
    return false;
  };
  const toLineEnd = (): void => {
    while (i < n && s[i] !== "\n") {
      if (s[i] === "\\") i++;
      i++;
    }
  };
  /** A file name: blanks skipped, then everything to the end of the line. */
  const fileName = (): string => {
    while (i < n && (s[i] === " " || s[i] === "\t")) i++;
    const start = i;
    while (i < n && s[i] !== "\n") i++;
    return s.slice(start, i);
  };
  const label = (): void => {
    while (i < n && s[i] !== "\n" && s[i] !== ";") i++;
  };
  const address = (): boolean => {
    const c = s[i];
    if (c === undefined) return true;
    if (/[0-9]/.test(c)) {
      while (i < n && /[0-9~]/.test(s[i] as string)) i++;
      return true;
    }
    if (c === "$") {
      i++;
      return true;
    }
    if (c === "/" || c === "\\") {
      const delim = c === "\\" ? s[i + 1] : "/";
      i += c === "\\" ? 2 : 1;
      if (delim === undefined || delim === "\n" || !skipPart(delim, true)) return false;
      while (i < n && /[IM]/.test(s[i] as string)) i++;
      return true;
    }
    if (c === "+" || c === "~") {
      i++;
      while (i < n && /[0-9]/.test(s[i] as string)) i++;
    }
    return true;
  };
  while (true) {
    while (i < n && /[\s;]/.test(s[i] as string)) i++;
    if (i >= n) return out;
    if (s[i] === "#") {
      toLineEnd();
      continue;
    }
    if (!address()) return fail("an unreadable address");
    if (s[i] === ",") {
      i++;
      while (i < n && /[ \t]/.test(s[i] as string)) i++;
      if (!address()) return fail("an unreadable address");
    }
    while (i < n && /[ \t]/.test(s[i] as string)) i++;
    while (s[i] === "!") i++;
    while (i < n && /[ \t]/.test(s[i] as string)) i++;
    const cmd = s[i++];
    if (cmd === undefined) return fail("an address without a command");
    switch (cmd) {
      case "{":
      case "}":
        break;
      case "s":
      case "y": {
        const delim = s[i++];
        if (delim === undefined || delim === "\\" || delim === "\n") return fail(`an unreadable ${cmd} command`);
        // y has no bracket expressions; s's regex does, its replacement does not.
        if (!skipPart(delim, cmd === "s") || !skipPart(delim, false)) return fail(`an unreadable ${cmd} command`);
        if (cmd === "y") break;
        while (i < n && /[gpiImMe0-9w \t]/.test(s[i] as string)) {
          if (s[i] === "e") out.runs = true;
          if (s[i] === "w") {
            i++;
            const file = fileName();
            if (file === "") return fail("the w flag without a file name");
            if (!SED_OUTPUT_DEVICES.has(file)) out.writes.push(file);
            break;
          }
          i++;
        }
        break;
      }
      case "a":
      case "i":
      case "c":
        toLineEnd();
        break;
      case "r":
      case "R": {
        const file = fileName();
        if (file !== "" && file !== "/dev/stdin") out.reads.push(file);
        break;
      }
      case "w":
      case "W": {
        const file = fileName();
        if (file === "") return fail(`the ${cmd} command without a file name`);
        if (!SED_OUTPUT_DEVICES.has(file)) out.writes.push(file);
        break;
      }
      case "e":
        out.runs = true;
        toLineEnd();
        break;
      case "b":
      case "t":
      case "T":
      case ":":
      case "v":
        label();
        break;
      case "q":
      case "Q":
      case "l":
      case "L":
        while (i < n && /[ \t0-9]/.test(s[i] as string)) i++;
        break;
      default:
        if (!"pPdDnNgGhHxz=F".includes(cmd)) return fail(`an unknown command ${JSON.stringify(cmd)}`);
    }
  }
}

/** File names GNU sed's `w` takes for its own output streams. */
const SED_OUTPUT_DEVICES = new Set(["/dev/stdout", "/dev/stderr"]);
