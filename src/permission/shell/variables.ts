/**
 * Shell variables and the builtins that set them: which assignments change nothing a later
 * command does, and which make it run something else (PAGER, BASH_ENV, a subscript bash
 * evaluates), so the command setting them is writing.
 */
import { type Inspection, ro, rw } from "./inspection.js";

/**
 * `a[$(cmd)]` in text: bash evaluates array subscripts wherever it evaluates arithmetic (`test -v`,
 * `[ x -eq y ]`, `let`, `read`, `printf -v`, integer variables), running the substitution even
 * when the text was quoted.
 */
export const SUBSCRIPT_CODE = /\[[^\]]*(\$\(|`)/;

/** Variables a command may be given without changing what programs run or where they look. */
const HARMLESS_VARIABLES =
  /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM|CI|DEBUG|VERBOSE|TIMEFORMAT)$/;
const PAGER_VARIABLES = /^(PAGER|GIT_PAGER|MANPAGER|SYSTEMD_PAGER|BAT_PAGER)$/;

/**
 * Whether setting `name` (to `value`, when known) leaves every command's meaning unchanged: shell
 * variables in lower case, locale and colour settings, a pager set to `cat`. `PATH`, `LD_PRELOAD`,
 * `GIT_*`, `HOME`, `BASH_ENV` and any other upper-case name are not: they can make a read-only
 * command run something else.
 */
export function harmlessVariable(name: string, value: string | null): boolean {
  if (value !== null && SUBSCRIPT_CODE.test(value)) return false;
  if (/^[a-z_][a-z0-9_]*$/.test(name)) return true;
  if (HARMLESS_VARIABLES.test(name)) return true;
  if (PAGER_VARIABLES.test(name)) return value === "cat" || value === "";
  return false;
}

/** `a[x]` (not `a[0]`): bash evaluates the subscript as arithmetic, running code a variable's value may hold. */
function evaluatedSubscript(variable: string): boolean {
  const open = variable.indexOf("[");
  return open >= 0 && !/^\[\d+\]$/.test(variable.slice(open));
}

export function unsafeVariableReason(name: string): string {
  return `sets ${name}, which can change what commands run or read`;
}

/**
 * `declare`, `typeset`, `local`, `export`, `readonly`. `risky[i]` for an assignment word means its
 * value is not plain literal text: not known before it runs (`a=$x`), or quoted text that reads as
 * a compound assignment (`'a=(...)'`). bash evaluates such a value as `(...)`, substitutions and
 * subscripts included, whenever the variable is an array: with `-a`/`-A`, or (declare, typeset,
 * local) when it already is one, which the line may have arranged anywhere (verified in bash 5.2:
 * `x='($(cmd))'; declare -a a=$x` runs cmd, so does `a=(); declare a=$x`; `export a=$x` does not).
 */
/** Variables every program already gets from its environment: exporting them again changes nothing. */
const ALWAYS_EXPORTED = new Set(["PATH", "HOME", "USER", "LOGNAME", "SHELL"]);

export function declaration(name: string, args: string[], risky: boolean[]): Inspection {
  let options = "";
  let exporting = name === "export";
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (risky[i] && (a.startsWith("-") || a.startsWith("+"))) return rw(`${name}: a non-literal option`);
    // -n makes a name a reference to another variable (`p=` then sets PS4, PATH, ...); -i makes
    // every assignment arithmetic, which runs code hidden in the value.
    if (/^[-+][a-zA-Z]*[ni]/.test(a)) {
      if (!(name === "export" && a === "-n")) {
        return rw(`${name} ${a}: name references and integer variables can run code`);
      }
      exporting = false;
    }
    if (a.startsWith("-") || a.startsWith("+")) {
      if (a.startsWith("-")) options += a.slice(1);
      if (/^-[a-zA-Z]*x/.test(a)) exporting = true;
      continue;
    }
    const eq = a.indexOf("=");
    const variable = eq >= 0 ? a.slice(0, eq) : a;
    if (risky[i] && eq < 0) return rw(`${name}: a non-literal variable name`);
    if (risky[i] && (name === "declare" || name === "typeset" || name === "local" || /[aA]/.test(options))) {
      return rw(
        `${name}: bash evaluates a value not known before it runs (or quoted as (...)) as a compound array assignment, which can run code`,
      );
    }
    // `export BASH_ENV` (set earlier by `${BASH_ENV:=f}`, read, ...) hands it to every child.
    if (
      eq < 0 &&
      exporting &&
      !ALWAYS_EXPORTED.has(variable) &&
      !harmlessVariable(variable.replace(/\[.*$/, ""), null)
    ) {
      return rw(`${name}: exports ${variable}, which can change what later commands run or read`);
    }
    if (evaluatedSubscript(variable))
      return rw(`${name}: bash evaluates the subscript of ${variable}, which can run code`);
    if (eq >= 0 && !harmlessVariable(variable.replace(/\[.*$/, ""), risky[i] ? null : a.slice(eq + 1))) {
      return rw(`${name}: ${unsafeVariableReason(variable)}`);
    }
  }
  return ro(`${name}: declares shell variables`);
}

/**
 * Builtins that store into variables (`read PATH`, `printf -v PATH`, `mapfile`, `getopts`, `let`):
 * read-only only when every variable they set is harmless, like an assignment.
 */
export function setter(name: string, args: string[], risky: boolean[]): Inspection {
  const names: string[] = [];
  const valued: Record<string, string> = {
    read: "adinNptu",
    mapfile: "dnOsucC",
    readarray: "dnOsucC",
    printf: "v",
  };
  const takes = valued[name] ?? "";
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    // A non-literal option could be `-v NAME`; printf's arguments after the format are only data.
    if (risky[i] && (positional.length === 0 || name !== "printf")) {
      return rw(`${name}: a non-literal argument could set any variable`);
    }
    if (a === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (name !== "let" && a.startsWith("-") && a.length > 1 && positional.length === 0) {
      for (let k = 1; k < a.length; k++) {
        const c = a[k] as string;
        if (!takes.includes(c)) continue;
        const value = k < a.length - 1 ? a.slice(k + 1) : (args[++i] ?? "");
        if (c === "C") return rw(`${name}: -C runs a callback`);
        if (c === "v" || (c === "a" && name === "read")) names.push(value);
        break;
      }
      continue;
    }
    positional.push(a);
  }
  if (name === "read") names.push(...positional);
  if (name === "mapfile" || name === "readarray") names.push(...positional.slice(0, 1));
  if (name === "getopts") names.push(...positional.slice(1, 2));
  if (name === "let") {
    for (const expr of positional) {
      const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(\[[^\]]*\])?\s*([-+*/%&|^]|<<|>>)?=/.exec(expr);
      if (m) names.push(m[1] as string);
    }
  }
  for (const variable of names) {
    if (evaluatedSubscript(variable))
      return rw(`${name}: bash evaluates the subscript of ${variable}, which can run code`);
    if (!harmlessVariable(variable.replace(/\[.*$/s, ""), null)) {
      return rw(`${name}: ${unsafeVariableReason(variable)}`);
    }
  }
  const what: Record<string, string> = {
    read: "reads input into variables",
    mapfile: "reads lines into an array",
    readarray: "reads lines into an array",
    printf: "prints its arguments",
    getopts: "parses options",
    let: "evaluates arithmetic",
  };
  return ro(`${name}: ${what[name] ?? "sets variables"}`);
}
