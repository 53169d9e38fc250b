/**
 * What the command tables say about one simple command: whether it is read-only and why, what it
 * runs, which files it writes or reads. Shared by the tables (commands.ts) and the programs
 * with scripts of their own (git.ts, sed.ts).
 */

export interface Classification {
  readOnly: boolean;
  reason: string;
}

/** A command run by another command: an argv slice (`sudo rm f`), or shell text (`bash -c "..."`). */
export type Nested =
  | {
      kind: "argv";
      /** argv[from, to) is the inner command, its first `assigns` words being `NAME=value` (from `env`). */
      from: number;
      to: number;
      assigns: number;
      /** Index of a word naming the directory the inner command runs in (`env -C dir`). */
      cwd?: number;
      /**
       * Text replaced by input before the inner command runs (`{}` of `find -exec`, `xargs -I R`):
       * words holding it are not known. `pathOnly` when the replacement is a found path, which
       * cannot be an option (`find`); otherwise it could be anything (`xargs` reads it from input).
       */
      placeholder?: { text: string; pathOnly: boolean };
      /** The runner appends input words to the inner command (`xargs` without `-I`): unknown arguments. */
      appends?: boolean;
      /**
       * The inner command runs in some folder below the current one (`find -execdir`): paths are
       * judged from here, but which repository a git command would use is not known.
       */
      below?: boolean;
    }
  | {
      kind: "script";
      /** argv[from, to) joined by spaces is shell text; `afterEquals` takes the text after the first `=` (alias). */
      from: number;
      to: number;
      afterEquals?: boolean;
      /** The text runs in this shell (`eval`, a trap, an alias), not in a child: it can change this shell. */
      current?: boolean;
    };

export interface Inspection extends Classification {
  /** Commands this one runs. */
  nested: Nested[];
  /** When true, the command is read-only only if everything it runs is (`timeout 5 ls`); sudo is never. */
  transparent: boolean;
  /** Indices of words naming files the command writes (`tee f`, `find -fprint f`). */
  writes: number[];
  /**
   * Files the command reads or writes that no word of its own names (`sed '1r f'`, `xargs -a f`):
   * literal paths relative to its working directory, or `*` for any file.
   */
  files?: { reads: string[]; writes: string[] };
}

export const UNKNOWN_REASON = "unknown command: treated as writing";

export function result(readOnly: boolean, reason: string, extra: Partial<Inspection> = {}): Inspection {
  return { readOnly, reason, nested: [], transparent: false, writes: [], ...extra };
}
export const ro = (reason: string, extra?: Partial<Inspection>): Inspection => result(true, reason, extra);
export const rw = (reason: string, extra?: Partial<Inspection>): Inspection => result(false, reason, extra);

/**
 * Whether `arg` is the long option `--<name>` or, as getopt_long, git and curl accept, any
 * unambiguous-looking abbreviation of it (`--outp=f` is `--output=f`). Every prefix counts:
 * which ones a program rejects as ambiguous depends on its other options, so bosun does not guess.
 */
export function isLongOption(arg: string, names: readonly string[], exact = false): boolean {
  if (!arg.startsWith("--") || arg === "--") return false;
  const given = arg.slice(2).split("=")[0] as string;
  if (given === "") return false;
  return names.some((name) => (exact ? name === given : name.startsWith(given)));
}
