/**
 * What a simple command may change in how bash reads and expands the REST of the line: aliases
 * (a defined alias can turn `ls` into `rm -rf x`), pathname expansion options (`dotglob` makes
 * `cat *` read `.env`), the meaning of `cd`, or all of them at once when it runs shell code nobody
 * can read before it runs. Argv only, like commands.ts; analyze.ts applies the answers to the
 * whole line. Every claim below was checked in bash 5.2 with a marker file.
 */

export interface LineEffects {
  /**
   * May define an alias or turn alias expansion on: `alias x=...`; `shopt -s expand_aliases`;
   * posix mode (`set -o posix`, `shopt -so posix`, `POSIXLY_CORRECT=`, `bash --posix`/`-o posix`);
   * `bash -i`; `bash -O expand_aliases`; `BASHOPTS`/`SHELLOPTS` handed to a child. bash expands an
   * alias in any text it parses after the definition: the next line, `$(...)`, `eval` text, a
   * trap, a sourced file. (`sh -c` — dash, or bash in posix mode — expands aliases too, but only
   * ones its own text defines, and such a definition is seen where it stands.)
   */
  aliases: boolean;
  /** May widen pathname expansion: `shopt -s dotglob|nocaseglob|extglob|globstar|...`, `GLOBIGNORE` (turns dotglob on). */
  globs: boolean;
  /** May change what `cd` does or where later commands run: `CDPATH`, `shopt -s cdable_vars|autocd|lastpipe`. */
  cwd: boolean;
  /**
   * Runs shell code in this shell that is not known before it runs, or sets a variable whose
   * name is not known (`source f`, `$cmd`, `eval "$x"`, `read "$n"`, `enable`): any of the above.
   */
  opaque: boolean;
}

const NONE: LineEffects = { aliases: false, globs: false, cwd: false, opaque: false };
const ALL: LineEffects = { aliases: true, globs: true, cwd: true, opaque: true };

/** shopt / set -o names that turn alias expansion on. */
const ALIAS_OPTIONS = new Set(["expand_aliases", "posix"]);
/** shopt names that make a pattern match more (or differently) than bash's default. */
const GLOB_OPTIONS = new Set([
  "dotglob",
  "nocaseglob",
  "extglob",
  "globstar",
  "nullglob",
  "failglob",
  "globasciiranges",
  "globskipdots",
]);
/** `lastpipe` runs a pipeline's last command in this shell: `ls | cd /tmp` then changes its directory. */
const CWD_OPTIONS = new Set(["cdable_vars", "autocd", "lastpipe"]);

/** Variable names that change how bash reads or expands text, wherever they are set or named. */
/**
 * Also BASH_ALIASES (`BASH_ALIASES[ls]=...` defines an alias) and BASH_CMDS (`BASH_CMDS[ls]=/x`
 * makes `ls` run /x, as `hash -p` does): a command name may then run another program.
 */
export const ALIAS_VARIABLES = /\b(POSIXLY_CORRECT|BASHOPTS|SHELLOPTS|BASH_ALIASES|BASH_CMDS)\b/;
export const GLOB_VARIABLES = /\b(GLOBIGNORE|BASHOPTS|SHELLOPTS)\b/;
export const CWD_VARIABLES = /\bCDPATH\b/;

/** Builtins that set variables by name: a name not known before it runs may be any of the above. */
const SETTERS = new Set([
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "read",
  "mapfile",
  "readarray",
  "printf",
  "getopts",
  "wait",
  "let",
]);

/** POSIX shells run as commands: their own options can turn aliases or glob options on for their text. */
const SHELLS = new Set(["bash", "sh", "dash", "zsh", "ksh", "mksh", "ash"]);

/**
 * The effects of one simple command (after quote removal). `risky[i]` marks a word not known before
 * it runs. `assigns` are the `NAME=value` words before the command, or the statement itself when
 * it has no command.
 */
export function lineEffects(argv: string[], risky: readonly boolean[], assigns: readonly string[] = []): LineEffects {
  const out: LineEffects = { ...NONE };
  const texts = [...assigns, ...argv];
  if (texts.some((t) => ALIAS_VARIABLES.test(t))) out.aliases = true;
  if (texts.some((t) => GLOB_VARIABLES.test(t))) out.globs = true;
  if (texts.some((t) => CWD_VARIABLES.test(t))) out.cwd = true;
  const first = argv[0];
  if (first === undefined) return out;
  if (risky[0]) return { ...ALL };
  const name = first.slice(first.lastIndexOf("/") + 1);
  const args = argv.slice(1);
  const argRisky = risky.slice(1);
  const anyRisky = argRisky.some(Boolean);
  switch (name) {
    case "alias":
      if (args.some((a, i) => argRisky[i] || a.includes("="))) out.aliases = true;
      break;
    case "shopt":
    case "set":
      if (anyRisky) return { ...ALL };
      if (args.some((a) => ALIAS_OPTIONS.has(a))) out.aliases = true;
      if (args.some((a) => GLOB_OPTIONS.has(a))) out.globs = true;
      if (args.some((a) => CWD_OPTIONS.has(a))) out.cwd = true;
      break;
    case "source":
    case ".":
    case "enable":
      return { ...ALL };
    case "hash":
      // `hash -p /x ls`: `ls` now runs /x.
      if (anyRisky || args.some((a) => /^-[a-zA-Z]*p/.test(a))) out.aliases = true;
      break;
    case "trap":
      // The trap's text runs later in this shell; a text not known before it runs may be anything.
      if (anyRisky) return { ...ALL };
      break;
    default:
      if (SHELLS.has(name)) shellOptions(args, argRisky, out);
      else if (SETTERS.has(name) && anyRisky && setsUnknownName(name, args, argRisky)) return { ...ALL };
  }
  return out;
}

/** `bash --posix`, `bash -i`, `bash -O expand_aliases`, `bash -o posix`, `bash -O dotglob`. */
function shellOptions(args: string[], risky: boolean[], out: LineEffects): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i]) {
      out.aliases = true;
      out.globs = true;
      return;
    }
    if (a === "--" || a === "-" || !/^[-+]/.test(a)) return;
    if (a === "--posix" || a === "--login" || a === "--interactive") {
      if (a !== "--login") out.aliases = true;
      continue;
    }
    if (a.startsWith("--")) continue;
    const cluster = a.slice(1);
    if (cluster.includes("i")) out.aliases = true;
    if (cluster.includes("O") || cluster.includes("o")) {
      const value = args[i + 1];
      if (risky[i + 1] || value === undefined) {
        out.aliases = true;
        out.globs = true;
      } else {
        if (ALIAS_OPTIONS.has(value)) out.aliases = true;
        if (GLOB_OPTIONS.has(value)) out.globs = true;
        if (CWD_OPTIONS.has(value)) out.cwd = true;
      }
      i++;
    }
    if (cluster.includes("c")) return;
  }
}

/**
 * Whether a risky word of a setter is (or may be) the NAME it sets: `read "$n"`, `printf -v "$n"`,
 * `declare "$x"`, `export "$n=1"`. A risky value of a known name (`declare a=$x`, `printf %s "$x"`)
 * is not.
 */
function setsUnknownName(name: string, args: string[], risky: boolean[]): boolean {
  if (name === "printf") {
    // Only `-v NAME` sets a variable; the format and its arguments are data.
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as string;
      if (risky[i]) return true;
      if (a === "-v") return risky[i + 1] === true;
      if (a.startsWith("-v")) return false;
      if (a === "--" || !a.startsWith("-")) return false;
    }
    return false;
  }
  return args.some((a, i) => risky[i] && !/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(a));
}
