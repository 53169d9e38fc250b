/**
 * Programs whose options decide whether they only read: `date` and `hostname` (which set the
 * machine's state from an argument), `test`, pagers, `tar`, `find`, `fd`, `tee`, `awk`, package
 * managers and network clients.
 */
import { type Inspection, isLongOption, type Nested, ro, rw } from "./inspection.js";

/** `X --version` (and the few spellings each tool knows) only prints a version; anything else is `otherwise`. */
export function versionOnly(name: string, args: string[], otherwise: string): Inspection {
  if (args.length === 1 && isVersionFlag(name, args[0] as string)) return ro(`${name}: prints its version`);
  return rw(otherwise);
}

/** Flags that only print a version or help. `-v` is a version flag for some tools only: `python -v` is verbose mode. */
function isVersionFlag(name: string, flag: string): boolean {
  if (flag === "--version" || flag === "-V" || flag === "--help" || flag === "-h") return true;
  return flag === "-v" && SHORT_V_VERSION.has(name);
}
const SHORT_V_VERSION = new Set(["node", "nodejs", "npm", "pnpm", "yarn", "bun", "deno", "ruby", "perl", "php"]);

/**
 * `test` / `[`: read-only, except where bash evaluates an operand as arithmetic (`-eq`, `-lt`, ...)
 * or as a name (`-v`): a variable's value, or a literal name, may hold `a[$(cmd)]`. Comparing
 * literal whole numbers is fine; a non-literal word is fine only as the operand of a file or
 * string test (`-f "$f"`, `"$a" = "$b"`), where it cannot turn into an arithmetic operator.
 */
/**
 * `date`: prints, unless it sets the system clock: `-s`/`--set`, or an operand that is not a
 * `+FORMAT` (`date 0101000023`, the POSIX way). Values of -d, -f, -r, -I are not operands.
 */
export function dateCommand(name: string, args: string[], risky: boolean[]): Inspection {
  const sets = `${name}: sets the system clock`;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i]) return rw(`${name}: a non-literal argument could set the clock`);
    if (a === "--") {
      if (args.slice(i + 1).some((x, k) => risky[i + 1 + k] || !x.startsWith("+"))) return rw(sets);
      break;
    }
    if (a.startsWith("--")) {
      if (isLongOption(a, ["set"])) return rw(sets);
      if (isLongOption(a, ["date", "file", "reference"]) && !a.includes("=")) i++;
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const c = a[k] as string;
        if (c === "s") return rw(sets);
        if (c === "I") break; // -I[FMT]: an optional value, attached
        if (c === "d" || c === "f" || c === "r") {
          if (k === a.length - 1) i++;
          break;
        }
      }
      continue;
    }
    if (!a.startsWith("+")) return rw(sets);
  }
  return ro(`${name}: prints the date`);
}

/**
 * hostname and its other names: only the options that print (`-a -A -d -f -i -I -s -y`, their long
 * names, version and help); a name, `-F file`/`--file`, `-b` set the host or domain name.
 */
export function hostnameCommand(name: string, args: string[], risky: boolean[]): Inspection {
  const prints =
    /^(-[aAdfiIsyVh]+|--(alias|all-fqdns|domain|fqdn|long|ip-address|all-ip-addresses|short|yp|nis|version|help))$/;
  if (args.every((a, i) => !risky[i] && prints.test(a))) return ro(`${name}: prints the host or domain name`);
  return rw(`${name}: sets the host or domain name (an operand, -F/--file, -b)`);
}

/**
 * Options that make a command read files named inside another file (`wc --files0-from=list`,
 * `sha256sum -c sums`, `file -f names`): the list is an operand, the files it names are not
 * known before it runs, so `read:*`.
 */
const FILE_LISTS: Record<string, { short?: RegExp; long: string[] }> = {
  wc: { long: ["files0-from"] },
  du: { long: ["files0-from"] },
  sort: { long: ["files0-from"] },
  file: { short: /^-[a-zA-Z]*f/, long: ["files-from"] },
  md5sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  sha1sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  sha224sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  sha256sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  sha384sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  sha512sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  b2sum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  shasum: { short: /^-[a-zA-Z]*c/, long: ["check"] },
  cksum: { long: ["check"] },
};

/** Whether `args` hold one of `name`'s file-list options (see FILE_LISTS); a risky word may be one. */
export function readsFileList(name: string, args: string[], risky: boolean[]): boolean {
  const spec = FILE_LISTS[name];
  if (!spec) return false;
  return args.some(
    (a, i) =>
      risky[i] ||
      (a.startsWith("--") ? isLongOption(a, spec.long) : a.startsWith("-") && (spec.short?.test(a) ?? false)),
  );
}

export function testCommand(name: string, args: string[], risky: boolean[]): Inspection {
  const literal = (i: number) => risky[i] !== true;
  const arithmetic = /^-(eq|ne|lt|le|gt|ge)$/;
  const strings = new Set(["=", "==", "!=", "<", ">", "-nt", "-ot", "-ef"]);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (literal(i) && a === "-v") return rw(`${name} -v: bash evaluates a name's subscript, which can run code`);
    if (literal(i) && arithmetic.test(a)) {
      const operands = [i - 1, i + 1];
      if (operands.some((k) => !literal(k) || !/^-?\d+$/.test(args[k] ?? ""))) {
        return rw(`${name} ${a}: bash evaluates the operands as arithmetic, which can run code hidden in a value`);
      }
    }
    if (!literal(i)) {
      const before = args[i - 1];
      const after = args[i + 1];
      const unary = before !== undefined && literal(i - 1) && /^-[a-zA-Z]$/.test(before) && !arithmetic.test(before);
      const stringOperand =
        (before !== undefined && literal(i - 1) && strings.has(before)) ||
        (after !== undefined && literal(i + 1) && strings.has(after));
      if (!unary && !stringOperand) return rw(`${name}: a non-literal word could be an arithmetic operator`);
    }
  }
  return ro(`${name}: evaluates a condition`);
}

interface BadOptions {
  /** Short options (clusters included), as a pattern on the whole word. */
  short?: RegExp;
  /** Long option names without `--`; abbreviations match too unless `exact`. */
  long?: string[];
  exact?: boolean;
}

export function optionGuard(
  name: string,
  args: string[],
  risky: boolean[],
  what: string,
  bad: BadOptions,
  why: string,
): Inspection {
  if (risky.some(Boolean)) return rw(`${name}: a non-literal argument could change what it does`);
  for (const a of args) {
    if (a === "--") break;
    if (a.startsWith("--") ? isLongOption(a, bad.long ?? [], bad.exact) : (bad.short?.test(a) ?? false)) {
      return rw(`${name}: ${why}`);
    }
  }
  return ro(`${name}: ${what}`);
}

/** Read-only while it has at most `max` non-option arguments (`uniq in out` writes `out`). */
export function positionalGuard(
  name: string,
  args: string[],
  risky: boolean[],
  what: string,
  max: number,
  why: string,
): Inspection {
  if (risky.some(Boolean)) return rw(`${name}: a non-literal argument could change what it does`);
  const positional = args.filter((a) => !a.startsWith("-") || a === "-");
  return positional.length > max ? rw(`${name}: ${why}`) : ro(`${name}: ${what}`);
}

export function pager(name: string, args: string[], risky: boolean[]): Inspection {
  if (risky.some(Boolean)) return rw(`${name}: a non-literal argument could change what it does`);
  for (const a of args) {
    if (a === "--") break;
    if (
      /^(-[a-zA-Z]*[oOk]|\+)/.test(a) ||
      isLongOption(a, ["log-file", "LOG-FILE", "lesskey-file", "lesskey-src", "lesskey-content"])
    ) {
      return rw(`${name}: writes a log file, loads key bindings or runs commands`);
    }
  }
  return ro(`${name}: pages through files`);
}

/**
 * `tar -tf a.tar` and the like: a listing, with only options known to do nothing else. tar runs
 * programs through many options (`-I`, `--use-compress-program`, `--checkpoint-action=exec=`,
 * `--to-command`, `-F`, `--rsh-command`), so anything not on this short list is writing.
 */
export function isTarList(args: string[]): boolean {
  const first = args[0];
  if (first === undefined) return false;
  // `-f host:file` is an archive on another machine, reached with rsh or ssh (--force-local aside).
  if (args.some((a) => a.includes(":"))) return false;
  const cluster = first.startsWith("--") ? "" : first.replace(/^-/, "");
  const listing = first === "--list" || (/^[tvfzjJ]+$/.test(cluster) && cluster.includes("t"));
  if (!listing) return false;
  let needsFile = cluster.includes("f");
  for (const a of args.slice(1)) {
    if (needsFile) {
      needsFile = false;
      continue;
    }
    if (/^-[tvfzjJ]+$/.test(a)) {
      if (a.includes("f")) needsFile = true;
      continue;
    }
    if (/^--(list|verbose|gzip|gunzip|bzip2|xz|zstd|file=.+|wildcards|no-wildcards|exclude=.+|numeric-owner)$/.test(a))
      continue;
    if (a === "--file") {
      needsFile = true;
      continue;
    }
    if (a.startsWith("-")) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// find, fd

export function find(name: string, args: string[], risky: boolean[]): Inspection {
  const nested: Nested[] = [];
  const writes: number[] = [];
  const problems: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i]) {
      problems.push("a non-literal argument could be an action such as -delete");
      continue;
    }
    if (a === "-exec" || a === "-execdir" || a === "-ok" || a === "-okdir") {
      let end = i + 1;
      while (end < args.length && !(args[end] === ";" || (args[end] === "+" && args[end - 1] === "{}"))) end++;
      if (end >= args.length) return rw(`${name}: ${a} without its terminating ;`);
      if (end === i + 1) return rw(`${name}: ${a} without a command`);
      nested.push({
        kind: "argv",
        from: i + 2,
        to: end + 1,
        assigns: 0,
        placeholder: { text: "{}", pathOnly: true },
        ...(a === "-execdir" || a === "-okdir" ? { below: true } : {}),
      });
      i = end;
    } else if (a === "-delete") {
      problems.push("-delete deletes files");
    } else if (a === "-fprint" || a === "-fprint0" || a === "-fls" || a === "-fprintf") {
      problems.push(`${a} writes a file`);
      writes.push(i + 2);
      i += a === "-fprintf" ? 2 : 1;
    }
  }
  if (problems.length > 0) return rw(`${name}: ${problems[0]}`, { nested, writes, transparent: true });
  return ro(`${name}: lists files`, { nested, transparent: true });
}

export function fdCommand(name: string, args: string[], risky: boolean[]): Inspection {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-x" || a === "--exec" || a === "-X" || a === "--exec-batch") {
      if (i + 1 >= args.length) return rw(`${name}: ${a} without a command`);
      const inner = args.slice(i + 1);
      const nested: Nested = { kind: "argv", from: i + 2, to: args.length + 1, assigns: 0 };
      // fd replaces {}, {/}, {//}, {.}, {/.}; without any it appends the path.
      if (inner.some((w) => /\{(\/|\/\/|\.|\/\.)?\}/.test(w))) nested.placeholder = { text: "{", pathOnly: false };
      else nested.appends = true;
      return ro(`${name}: runs a command on each file`, { nested: [nested], transparent: true });
    }
  }
  if (risky.some(Boolean)) return rw(`${name}: a non-literal argument could change what it does`);
  return ro(`${name}: lists files`);
}

// ---------------------------------------------------------------------------------------------
// tee

export function tee(name: string, args: string[], risky: boolean[]): Inspection {
  const writes: number[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (options && a === "--") {
      options = false;
      continue;
    }
    if (options && !risky[i] && a.startsWith("-") && a !== "-") continue;
    if (!risky[i] && isHarmlessDevice(a)) continue;
    writes.push(i + 1);
  }
  if (writes.length === 0) return ro(`${name}: copies its input to standard output`);
  return rw(`${name}: writes files`, { writes });
}

/** Device files that reading or writing cannot change: nothing to ask about. */
export function isHarmlessDevice(path: string): boolean {
  return /^\/dev\/(null|zero|random|urandom|stdout|stderr|stdin|tty|fd\/\d+)$/.test(path);
}

// ---------------------------------------------------------------------------------------------
// awk

export function awk(name: string, args: string[], risky: boolean[]): Inspection {
  const programs: string[] = [];
  let explicit = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i]) return rw(`${name}: a non-literal argument could change what it does`);
    if (a === "--") {
      if (!explicit && i + 1 < args.length) programs.push(args[i + 1] as string);
      explicit = true;
      break;
    }
    if (!a.startsWith("-") || a === "-") {
      if (!explicit) programs.push(a);
      explicit = true;
      break;
    }
    if (a === "-F" || a === "-v") {
      i++;
      continue;
    }
    if (/^-[Fv]./.test(a) || /^--(field-separator|assign)=/.test(a)) continue;
    if (a === "-e" || a === "--source") {
      programs.push(args[++i] ?? "");
      explicit = true;
      continue;
    }
    if (/^-(f|E|i|l)/.test(a) || /^--(file|exec|include|load)/.test(a))
      return rw(`${name}: loads a program file or extension`);
    if (/^--(posix|traditional|sandbox|characters-as-bytes|re-interval|lint|non-decimal-data)$/.test(a)) continue;
    if (/^-[bcPrSt]+$/.test(a)) continue;
    return rw(`${name}: unknown option ${a}`);
  }
  if (programs.length === 0) return rw(`${name}: no program`);
  for (const p of programs) {
    // Plain substrings, not syntax: awk continues lines with a backslash (`system\<newline>(`), so
    // anything that merely contains these words or characters is not proven read-only.
    if (/system|\||>|<|getline|@|fflush|close|ENVIRON|PROCINFO/.test(p)) {
      return rw(`${name}: the program may read other files, write files or run commands (system, getline, |, <, >)`);
    }
  }
  // `BEGIN { ARGV[1] = ".env"; ARGC = 2 }` makes awk read a file no operand names.
  if (programs.some((p) => /ARGV|ARGC/.test(p))) {
    return ro(`${name}: prints computed text; its program chooses the files it reads (ARGV)`, {
      files: { reads: ["*"], writes: [] },
    });
  }
  return ro(`${name}: prints computed text (no system, pipes or output redirection)`);
}

// ---------------------------------------------------------------------------------------------
// Package managers, toolchains, network

/**
 * npm, pnpm, yarn, bun, pip: even their listing commands write logs and caches under the home
 * folder and may reach the network (the registry, an update check). Only printing the version
 * is read-only.
 */
export function packageManager(name: string, args: string[]): Inspection {
  return versionOnly(name, args, `${name}: writes logs and caches, reaches the registry, or runs package scripts`);
}

export function pip(name: string, args: string[]): Inspection {
  return versionOnly(name, args, `${name}: writes logs and caches, reaches the index, or installs packages`);
}

export function goCommand(name: string, args: string[], risky: boolean[]): Inspection {
  if (risky.some(Boolean)) return rw(`${name}: a non-literal argument could change what it does`);
  const sub = args[0];
  if (sub === "version" || sub === "help" || sub === "doc") return ro(`${name} ${sub}: prints information`);
  if (sub === "env" && !args.some((a) => a === "-w" || a === "-u")) return ro(`${name} env: prints settings`);
  return rw(`${name}${sub ? ` ${sub}` : ""}: builds, downloads or runs code`);
}

/**
 * curl reaches the network: every request can carry what it read (`-H @file`, a URL holding a
 * secret) to another machine, and reads `file://` URLs anywhere. Never read-only; only printing
 * its version is.
 */
export function curl(name: string, args: string[]): Inspection {
  return versionOnly(name, args, `${name}: sends requests over the network`);
}
