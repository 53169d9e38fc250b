import { UsageError } from "../../errors.js";
import { untilGoal } from "../until.js";
import type { RunOptions } from "./run.js";

/** `bosun`'s own flags: `bosun run`'s, with -p and -r. */
export interface TopLevelOptions extends RunOptions {
  print?: boolean;
  /** `-r <session>`; `-r` alone (true) asks the person to pick one. */
  resume?: string | true;
}

/**
 * `bosun [message]`: the interactive session at a terminal (the message its first), or `bosun
 * run` where there is none or with -p. Without a message and without a terminal there is nothing
 * to run: a usage error that says where to go, never the help with exit 0.
 */
export async function topLevel(words: string[], options: TopLevelOptions, commands: string[]): Promise<void> {
  const first = words[0];
  const near = first === undefined ? undefined : nearCommand(first, commands);
  if (near !== undefined) {
    const quote = words.length > 1 ? `; to give the agent this task, quote it: bosun "${words.join(" ")}"` : "";
    throw new UsageError(`unknown command '${first}' (did you mean ${near}?)${quote}`);
  }
  const habit = first === undefined ? undefined : otherAgentsCommand(words);
  if (habit !== undefined) throw new UsageError(habit);
  const { print, resume, ...rest } = options;
  if (typeof resume === "string" && rest.session !== undefined) {
    throw new UsageError("-r and -s both name a session; give one of them");
  }
  const chosen: RunOptions = { ...rest, ...(typeof resume === "string" ? { session: resume } : {}) };
  const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
  if (print || (words.length > 0 && !terminal)) {
    if (resume === true) {
      throw new UsageError(
        '-r without a session picks one in the interactive session, which needs a terminal; name it: bosun -p -r <session> "…"',
      );
    }
    return (await import("./run.js")).run(words, chosen);
  }
  if (!terminal) {
    throw new UsageError(
      'the interactive session needs a terminal (stdin and stdout); without one, give the task to bosun run: bosun run "fix the failing test", or pipe it in: … | bosun run',
    );
  }
  // What only a run has: said here, rather than silently ignored by the interactive session.
  const runOnly: [string, unknown][] = [
    ["--format", rest.format],
    ["--auto", rest.auto],
    ["-f/--file", rest.file],
    ["--max-steps", rest.maxSteps],
    // Commander sets it true unless --no-decisions was given.
    ["--no-decisions", rest.decisions === false ? false : undefined],
  ];
  for (const [flag, given] of runOnly) {
    if (given !== undefined) {
      throw new UsageError(`${flag} is for a run, not the interactive session: add -p to run the task (bosun -p …)`);
    }
  }
  const { format: _, auto: __, file: ___, maxSteps: ____, decisions: _____, until, ...session } = chosen;
  // --until: the session's goal from its first turn, as /goal would set it (and /goal off clears).
  const goal = untilGoal(until);
  const opening = [...(resume === true ? ["/resume"] : []), ...(words.length > 0 ? [words.join(" ")] : [])];
  await (await import("./interactive.js")).interactive({ ...session, ...(goal ? { goal } : {}) }, opening);
}

/**
 * Subcommands other agents have (`codex resume`, `codex exec "…"`, `claude continue`-style habits)
 * that bosun spells as flags. Typed unquoted, they are a habit, not a task: sent to the model,
 * `bosun resume` would open a new session whose first message is "resume".
 */
const HABITS: Record<string, string> = {
  resume:
    "bosun resumes with -r: bosun -r picks a session, bosun -r <session> names one; bosun -c continues the latest",
  continue: "bosun -c continues the latest session of this repository",
  exec: 'bosun -p "…" (or bosun run "…") runs a task without the interactive session',
};

/** What to say for another agent's subcommand typed to bosun, or undefined when it is not one. */
export function otherAgentsCommand(words: string[]): string | undefined {
  const [first, ...more] = words;
  const pointer = first === undefined ? undefined : HABITS[first];
  if (pointer === undefined) return undefined;
  // `bosun resume` alone and `bosun exec fix it`: what follows is a task only for exec.
  if (first !== "exec" && more.length > 1) return undefined;
  const quote = `; to give the agent this task, quote it: bosun "${words.join(" ")}"`;
  return `bosun has no '${first}' command: ${pointer}${quote}`;
}

/**
 * A lone word one or two letters from a command's name is a mistyped command (`bosun sesions`),
 * not a task: said as such, never sent to a model.
 */
export function nearCommand(word: string, commands: string[]): string | undefined {
  if (!/^[a-z-]+$/.test(word)) return undefined;
  const allowed = word.length <= 4 ? 1 : 2;
  return commands.find((name) => name !== word && distance(word, name) <= allowed);
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length] ?? 0;
}
