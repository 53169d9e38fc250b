/**
 * Commands that run other commands — `sudo`, `env`, `timeout`, `nice`, `xargs`, `watch`, `bash -c`,
 * a trap, an alias — read for their options, so what they run is found and judged too.
 */
import { type Inspection, type Nested, ro, rw, UNKNOWN_REASON } from "./inspection.js";
import { harmlessVariable, unsafeVariableReason } from "./variables.js";

export interface OptionSpec {
  /** Options without a value. */
  flags: string[];
  /** Options taking a value (the next word, or after `=` for long ones, attached for short ones). */
  values: string[];
  /** Short value options may be glued to their value (`-oL`). */
  attached?: boolean;
  /** What the command does without a command to run; absent means it needs one. */
  alone?: string;
}

/**
 * Skips a wrapper's options and returns the index (into `args`) of the command it runs, or a
 * reason it cannot tell. Short flag clusters (`-0r`) are split; unknown options stop the analysis.
 */
export function skipOptions(args: string[], risky: boolean[], spec: OptionSpec): number | string {
  let i = 0;
  while (i < args.length) {
    const a = args[i] as string;
    if (risky[i]) return "a non-literal option or command";
    if (a === "--") return i + 1;
    if (!a.startsWith("-") || a === "-") return i;
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const key = eq >= 0 ? a.slice(0, eq) : a;
      if (spec.flags.includes(key)) i++;
      else if (spec.values.includes(key)) i += eq >= 0 ? 1 : 2;
      else return `unknown option ${a}`;
      continue;
    }
    // short cluster
    let consumed = 1;
    for (let k = 1; k < a.length; k++) {
      const opt = `-${a[k]}`;
      if (spec.flags.includes(opt)) continue;
      if (spec.values.includes(opt)) {
        if (k === a.length - 1) consumed = 2;
        break;
      }
      return `unknown option ${a}`;
    }
    i += consumed;
  }
  return args.length;
}

/** A command that runs the rest of its arguments as another command (`nohup rm f`). */
export function wrapper(name: string, args: string[], risky: boolean[], spec: OptionSpec): Inspection {
  const start = skipOptions(args, risky, spec);
  if (typeof start === "string") return rw(`${name}: ${start}: cannot tell what it runs`);
  if (start >= args.length) {
    return spec.alone ? ro(`${name}: ${spec.alone}`) : ro(`${name}: runs nothing`);
  }
  return ro(`${name}: runs another command`, {
    nested: [{ kind: "argv", from: start + 1, to: args.length + 1, assigns: 0 }],
    transparent: true,
  });
}

export function niceCommand(name: string, args: string[], risky: boolean[]): Inspection {
  // `nice -5 cmd` and `nice -n 5 cmd` both adjust; `nice` alone prints the niceness.
  const normalized = args.map((a) => (/^-\d+$/.test(a) ? "-n0" : a));
  return wrapper(name, normalized, risky, {
    flags: [],
    values: ["-n", "--adjustment"],
    attached: true,
    alone: "prints the niceness",
  });
}

export function timeoutCommand(name: string, args: string[], risky: boolean[]): Inspection {
  const spec = {
    flags: ["-v", "--verbose", "--foreground", "--preserve-status"],
    values: ["-s", "-k", "--signal", "--kill-after"],
  };
  const start = skipOptions(args, risky, spec);
  if (typeof start === "string") return rw(`${name}: ${start}: cannot tell what it runs`);
  // the duration, then the command
  if (start + 1 >= args.length) return rw(`${name}: no command to run`);
  if (risky[start]) return rw(`${name}: a non-literal duration: cannot tell what it runs`);
  return ro(`${name}: runs another command with a time limit`, {
    nested: [{ kind: "argv", from: start + 2, to: args.length + 1, assigns: 0 }],
    transparent: true,
  });
}

export function ionice(name: string, args: string[], risky: boolean[]): Inspection {
  if (args.some((a) => /^-[a-zA-Z]*[pPu]/.test(a) || /^--(pid|pgid|uid)/.test(a))) {
    return rw(`${name}: changes the priority of running processes`);
  }
  return wrapper(name, args, risky, {
    flags: ["-t", "--ignore"],
    values: ["-c", "-n", "--class", "--classdata"],
    attached: true,
    alone: "prints the priority",
  });
}

export function commandBuiltin(name: string, args: string[], risky: boolean[]): Inspection {
  if (args.some((a, i) => !risky[i] && /^-[pvV]*[vV]/.test(a))) return ro(`${name}: describes commands`);
  return wrapper(name, args, risky, { flags: ["-p"], values: [] });
}

export function sudoLike(name: string, args: string[], risky: boolean[]): Inspection {
  const spec: OptionSpec = {
    flags: [
      "-A",
      "-b",
      "-E",
      "-H",
      "-k",
      "-K",
      "-n",
      "-P",
      "-S",
      "-B",
      "-s",
      "-i",
      "--askpass",
      "--background",
      "--preserve-env",
      "--set-home",
      "--non-interactive",
      "--stdin",
      "--shell",
      "--login",
      "--reset-timestamp",
    ],
    values: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--chdir"],
  };
  const own = `${name}: runs commands with another user's privileges`;
  const start = skipOptions(args, risky, spec);
  if (typeof start === "string" || start >= args.length) return rw(own);
  const shellMode = args.slice(0, start).some((a) => /^-[a-zA-Z]*[si]/.test(a) || a === "--shell" || a === "--login");
  const nested: Nested = shellMode
    ? { kind: "script", from: start + 1, to: args.length + 1 }
    : { kind: "argv", from: start + 1, to: args.length + 1, assigns: 0 };
  return rw(own, { nested: [nested] });
}

export function su(name: string, args: string[]): Inspection {
  const own = `${name}: runs commands as another user`;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-c" || a === "--command") {
      return rw(own, { nested: [{ kind: "script", from: i + 2, to: i + 3 }] });
    }
    if (a.startsWith("--command=")) return rw(own);
  }
  return rw(own);
}

export function env(name: string, args: string[], risky: boolean[]): Inspection {
  let i = 0;
  let cwd: number | undefined;
  while (i < args.length) {
    const a = args[i] as string;
    if (risky[i]) return rw(`${name}: a non-literal option or command: cannot tell what it runs`);
    if (a === "--") {
      i++;
      break;
    }
    if (a === "-" || a === "-i" || a === "-0" || a === "-v" || a === "--ignore-environment" || a === "--null") {
      i++;
    } else if (a === "--debug") {
      i++;
    } else if (a === "-u" || a === "--unset") {
      i += 2;
    } else if (a.startsWith("--unset=") || (a.startsWith("-u") && a.length > 2)) {
      i++;
    } else if (a === "-C" || a === "--chdir") {
      cwd = i + 2;
      i += 2;
    } else if (a === "-S" || a === "--split-string") {
      return ro(`${name}: runs a command split from a string`, {
        nested: [{ kind: "script", from: i + 2, to: args.length + 1 }],
        transparent: true,
      });
    } else if (a.startsWith("-S") || a.startsWith("--split-string=")) {
      return rw(`${name}: runs a command split from a string`);
    } else if (a.startsWith("-")) {
      return rw(`${name}: unknown option ${a}: cannot tell what it runs`);
    } else {
      break;
    }
  }
  const assignsStart = i;
  while (i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i] as string)) i++;
  if (i >= args.length) {
    for (const a of args.slice(assignsStart)) {
      const eq = a.indexOf("=");
      if (!harmlessVariable(a.slice(0, eq), a.slice(eq + 1)))
        return rw(`${name}: ${unsafeVariableReason(a.slice(0, eq))}`);
    }
    return ro(`${name}: prints the environment`);
  }
  const nested: Nested = { kind: "argv", from: assignsStart + 1, to: args.length + 1, assigns: i - assignsStart };
  if (cwd !== undefined) nested.cwd = cwd;
  return ro(`${name}: runs another command`, { nested: [nested], transparent: true });
}

export function xargs(name: string, args: string[], risky: boolean[]): Inspection {
  const spec: OptionSpec = {
    flags: [
      "-0",
      "-o",
      "-p",
      "-r",
      "-t",
      "-x",
      "--null",
      "--open-tty",
      "--interactive",
      "--no-run-if-empty",
      "--verbose",
      "--exit",
      "--show-limits",
      "--replace",
    ],
    values: [
      "-a",
      "-d",
      "-E",
      "-I",
      "-L",
      "-n",
      "-P",
      "-s",
      "--arg-file",
      "--delimiter",
      "--eof",
      "--max-lines",
      "--max-args",
      "--max-procs",
      "--max-chars",
      "--process-slot-var",
    ],
    attached: true,
  };
  // optional-argument options only take an attached value: -e[EOF], -i[R], -l[N]
  const normalized = args.map((a) => (/^-[eil]/.test(a) ? "-0" : a));
  const start = skipOptions(normalized, risky, spec);
  if (typeof start === "string") return rw(`${name}: ${start}: cannot tell what it runs`);
  // Audited, GNU xargs 4.9: -0 -d -E -e -I -i -L -l -n -P -s -r -t -x -o (reopens the terminal
  // as input) -p (asks at the terminal) --show-limits: nothing beyond the command it runs.
  // -a/--arg-file reads a file (its lines become arguments); --process-slot-var=NAME sets NAME in
  // every command it runs (BASH_ENV=0 makes bash source a file named 0). Abbreviated long options
  // (--arg=f, --process=X) are unknown above, hence writing.
  const reads: string[] = [];
  let problem: string | null = null;
  for (const { option, value } of optionValues(normalized.slice(0, start), risky, spec)) {
    if (option === "-a" || option === "--arg-file") reads.push(value ?? "*");
    if (option === "--process-slot-var" && (value === null || !harmlessVariable(value, "0"))) {
      problem = `${name} --process-slot-var: ${unsafeVariableReason(value ?? "a variable")} in every command it runs`;
    }
  }
  const files = reads.length > 0 ? { files: { reads, writes: [] } } : {};
  if (start >= args.length) return problem ? rw(problem, files) : ro(`${name}: runs echo on its input`, files);
  let replace: string | null = null;
  for (let i = 0; i < start; i++) {
    const a = args[i] as string;
    if (a === "-I") replace = args[i + 1] ?? null;
    else if (/^-[0oprtx]*I/.test(a)) replace = a.slice(a.indexOf("I") + 1) || (args[i + 1] ?? null);
    else if (a === "-i" || a === "--replace") replace = "{}";
    else if (a.startsWith("-i")) replace = a.slice(2);
    else if (a.startsWith("--replace=")) replace = a.slice("--replace=".length);
  }
  const nested: Nested = { kind: "argv", from: start + 1, to: args.length + 1, assigns: 0 };
  if (replace) nested.placeholder = { text: replace, pathOnly: false };
  else nested.appends = true;
  if (problem) return rw(problem, { nested: [nested], ...files });
  return ro(`${name}: runs a command on its input`, { nested: [nested], transparent: true, ...files });
}

/**
 * The value options among a wrapper's options (already checked by skipOptions): each with its
 * value, or null when the value is not literal (`-a "$f"`, marked by a leading `$` or quote).
 */
export function optionValues(
  args: string[],
  risky: readonly boolean[],
  spec: OptionSpec,
): { option: string; value: string | null }[] {
  const out: { option: string; value: string | null }[] = [];
  const next = (i: number): string | null => (risky[i] || args[i] === undefined ? null : (args[i] as string));
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--") break;
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const key = eq >= 0 ? a.slice(0, eq) : a;
      if (spec.values.includes(key)) out.push({ option: key, value: eq >= 0 ? a.slice(eq + 1) : next(++i) });
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const opt = `-${a[k]}`;
      if (!spec.values.includes(opt)) continue;
      const rest = a.slice(k + 1);
      out.push({ option: opt, value: rest.length > 0 ? rest : next(++i) });
      break;
    }
  }
  return out;
}

export function watch(name: string, args: string[], risky: boolean[]): Inspection {
  const spec: OptionSpec = {
    flags: ["-b", "-c", "-e", "-g", "-p", "-t", "-w", "-x", "-d", "--beep", "--color", "--errexit", "--chgexit"],
    values: ["-n", "--interval", "-q", "--equexit"],
    attached: true,
  };
  const start = skipOptions(args, risky, spec);
  if (typeof start === "string") return rw(`${name}: ${start}: cannot tell what it runs`);
  if (start >= args.length) return rw(`${name}: no command to run`);
  const exec = args.slice(0, start).some((a) => /^-[a-zA-Z]*x/.test(a) || a === "--exec");
  return ro(`${name}: runs a command repeatedly`, {
    nested: [
      exec
        ? { kind: "argv", from: start + 1, to: args.length + 1, assigns: 0 }
        : { kind: "script", from: start + 1, to: args.length + 1 },
    ],
    transparent: true,
  });
}

export function trap(name: string, args: string[], risky: boolean[]): Inspection {
  let i = 0;
  if (args[0] === "--") i = 1;
  const action = args[i];
  if (action === undefined || action === "-l" || action === "-p") return ro(`${name}: lists traps`);
  if (args.length - i < 2 || action === "-" || action === "") return ro(`${name}: resets or ignores signals`);
  if (risky[i]) return rw(`${name}: a non-literal trap command`);
  return ro(`${name}: runs a command on a signal`, {
    nested: [{ kind: "script", from: i + 1, to: i + 2, current: true }],
    transparent: true,
  });
}

export function alias(name: string, args: string[], risky: boolean[]): Inspection {
  const nested: Nested[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "-p") continue;
    if (a.includes("=")) nested.push({ kind: "script", from: i + 1, to: i + 2, afterEquals: true, current: true });
    else if (risky[i]) return rw(`${name}: a non-literal alias`);
  }
  if (nested.length === 0) return ro(`${name}: lists aliases`);
  // The alias's text is analyzed as commands too, but a defined alias can also make any later
  // command name (`ls`) run something else: see effects.ts.
  return rw(`${name}: defines aliases, so later command names may run other commands`, { nested });
}

/** POSIX shells: `-c` text is analyzed; a script file or standard input is arbitrary code. */
export function shell(name: string, args: string[], risky: boolean[]): Inspection {
  let i = 0;
  let command = false;
  while (i < args.length) {
    const a = args[i] as string;
    if (risky[i]) return rw(`${name}: a non-literal option or script`);
    if (a === "--" || a === "-") {
      i++;
      break;
    }
    if (a === "--version" || a === "--help")
      return args.length === 1 ? ro(`${name}: prints its version`) : rw(UNKNOWN_REASON);
    if (a === "--rcfile" || a === "--init-file") return rw(`${name}: runs a startup file`);
    if (a.startsWith("--")) {
      i++;
      continue;
    }
    if (!a.startsWith("-") && !a.startsWith("+")) break;
    if (a === "-o" || a === "+o" || a === "-O" || a === "+O") {
      i += 2;
      continue;
    }
    if (a.slice(1).includes("c")) command = true;
    i++;
  }
  if (command) {
    if (i >= args.length) return rw(`${name}: -c without a command`);
    return ro(`${name}: runs shell code given as text`, {
      nested: [{ kind: "script", from: i + 1, to: i + 2 }],
      transparent: true,
    });
  }
  if (i < args.length) return rw(`${name}: runs a shell script file: arbitrary code`);
  return rw(`${name}: runs shell code from standard input: arbitrary code`);
}
