/**
 * What the shell analysis builds as it walks a line: its requests, the working directories it
 * may be in, and what the line has done to the shell so far. Shared by the walk (analyze.ts) and
 * the files a command names (targets.ts).
 */
import type { Parser } from "web-tree-sitter";

export interface ShellRequest {
  action: "shell" | "edit" | "external_directory" | "read" | "web";
  resource: string;
  /** for shell: the simple command's classification */
  readOnly?: boolean;
  /** for shell: the command is not in the table at all (only such a command may go to smart mode's judge) */
  unclassified?: boolean;
  /** for shell: the leading words an "always" approval covers (`git status`), when they are known */
  prefix?: string;
  /**
   * for shell: literal arguments that may name files, as absolute paths (lexically resolved). The
   * caller turns the ones that exist into `read:` requests, so read rules (say, on `.env` files) hold for
   * `cat .env` as they do for the read tool.
   */
  operands?: string[];
  /**
   * for a git command proven read-only: the folders it runs in (after `-C`), `*` when not known.
   * git reads the config of the repository it finds from there, which can name programs to run;
   * the caller checks that repository (call-requests.ts).
   */
  gitDirs?: string[];
  /**
   * for read: the resource is a pathname pattern (pattern.ts syntax, absolute, braces expanded)
   * that bash expands before the command runs; the caller matches it against the file system.
   */
  glob?: boolean;
}

export interface ShellAnalysis {
  parsed: boolean;
  /** why not, when parsed is false */
  problem?: string;
  requests: ShellRequest[];
  /** Something in the line may widen pathname expansion: match glob operands the widest way bash could. */
  wideGlobs?: boolean;
}

/** A possible working directory; null when it cannot be known (`cd "$X"`, `popd`). */
export type Cwd = string | null;

export interface State {
  parser: Parser;
  workspace: string;
  /** What `~` and `$HOME` stand for; null when the line may set HOME. */
  home: string | null;
  out: ShellRequest[];
  /** Wrappers waiting to learn whether everything they run is read-only. */
  sinks: { readOnly: boolean }[];
  /**
   * Something in the line may change what `cd` does or when the directory changes (a function
   * or alias named cd, `shopt -s cdable_vars`, CDPATH, a trap that runs cd): from then on the
   * working directory is not known.
   */
  cwdUntracked: boolean;
  /**
   * Something in the line may define an alias or turn alias expansion on (effects.ts): any command
   * the line names may then be another one. Applied to the whole line once it is read.
   */
  aliasing: boolean;
  /** Something in the line may widen pathname expansion (dotglob, nocaseglob, extglob, globstar, GLOBIGNORE). */
  wideGlobs: boolean;
  /** Inside a command run in some folder below the known one (`find -execdir`): how deep. */
  below: number;
}

export function emitShell(state: State, resource: string, readOnly: boolean): ShellRequest {
  const request: ShellRequest = { action: "shell", resource, readOnly };
  state.out.push(request);
  for (const sink of state.sinks) sink.readOnly &&= readOnly;
  return request;
}

export function finish(state: State, request: ShellRequest, readOnly: boolean): void {
  request.readOnly = readOnly;
  for (const sink of state.sinks) sink.readOnly &&= readOnly;
}
