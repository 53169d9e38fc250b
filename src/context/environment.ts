import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { promisify } from "node:util";
import { findRepoRoot } from "../util/repo.js";

const run = promisify(execFile);

/** What the model is told about where it works. Re-checked before a step when it may have changed (watchEnvironment); sent only when it changed. */
export interface Environment {
  date: string;
  cwd: string;
  /** The git repository's root; undefined outside a repository. */
  repository?: string;
  platform: string;
  /** The checked-out branch (or "detached at <sha>"); undefined outside a repository. */
  branch?: string;
  /** Whether the work tree has changes git would show in `git status`. */
  dirty?: boolean;
}

/** Reads the environment now. Git questions that fail (no git, a broken repository) are left out, not guessed. */
export async function readEnvironment(cwd: string, now: Date = new Date()): Promise<Environment> {
  const repository = findRepoRoot(cwd);
  const env: Environment = {
    date: now.toISOString().slice(0, 10),
    cwd,
    platform: process.platform,
    ...(repository ? { repository } : {}),
  };
  if (!repository) return env;
  // One git process for both answers. Run at the root that holds `.git`, never in `cwd`: git
  // takes the first folder up from where it runs that looks like a git directory, and a folder a
  // repository commits with HEAD, objects/, refs/ and a config naming core.fsmonitor would have
  // `git status` run that program, unasked, whenever bosun starts there (seen with git 2.39).
  try {
    const { stdout } = await run("git", ["status", "--porcelain=v2", "--branch", "--untracked-files=normal"], {
      cwd: repository,
      timeout: 5_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const lines = stdout.split("\n").filter((line) => line !== "");
    const head = lines.find((line) => line.startsWith("# branch.head "))?.slice("# branch.head ".length);
    const oid = lines.find((line) => line.startsWith("# branch.oid "))?.slice("# branch.oid ".length);
    if (head && head !== "(detached)") env.branch = head;
    else if (oid && oid !== "(initial)") env.branch = `detached at ${oid.slice(0, 7)}`;
    env.dirty = lines.some((line) => !line.startsWith("#"));
  } catch {
    // No git, or a broken repository: the branch and state are left out, not guessed.
  }
  return env;
}

/** The block the model sees; equal environments give equal text, so "changed" is a text comparison. */
export function renderEnvironment(env: Environment): string {
  return [
    "Environment:",
    `- date: ${env.date}`,
    `- working directory: ${env.cwd}`,
    `- repository root: ${env.repository ?? "none (not a git repository)"}`,
    `- platform: ${env.platform}`,
    ...(env.branch ? [`- git branch: ${env.branch}`] : []),
    ...(env.dirty !== undefined ? [`- work tree: ${env.dirty ? "has uncommitted changes" : "clean"}`] : []),
  ].join("\n");
}

/**
 * The environment as a turn sees it step after step, without a `git status` process per step: it
 * is read again only when something may have changed it — the first step, a call that may change
 * the tree (an edit, a command not proven read-only: the caller says so with `mayHaveChanged`),
 * a new day, or git's own files moving (the mtime of the index or HEAD: a commit, a checkout, an
 * `add` by someone else). An edit made outside bosun in the middle of a turn, that touches
 * neither, is seen at the next turn or the next changing call.
 */
export interface EnvironmentWatch {
  read(now?: Date): Promise<Environment>;
  /** A call that may have changed the work tree ran: the next read asks git again. */
  mayHaveChanged(): void;
}

export function watchEnvironment(
  cwd: string,
  read: (cwd: string, now: Date) => Promise<Environment> = readEnvironment,
): EnvironmentWatch {
  let last: { env: Environment; signal: string } | undefined;
  let stale = true;
  return {
    async read(now = new Date()) {
      const day = now.toISOString().slice(0, 10);
      if (!stale && last?.signal === `${day} ${gitSignal(cwd)}`) return last.env;
      stale = false;
      const env = await read(cwd, now);
      // Taken after the read: `git status` may itself rewrite the index (refreshed stat data).
      last = { env, signal: `${day} ${gitSignal(cwd)}` };
      return env;
    },
    mayHaveChanged() {
      stale = true;
    },
  };
}

/** The mtimes of the repository's index and HEAD (a worktree's own, through its `.git` file): cheap, no process. */
function gitSignal(cwd: string): string {
  const repository = findRepoRoot(cwd);
  if (!repository) return "no repository";
  const dir = gitDir(repository);
  return ["index", "HEAD"].map((name) => mtimeOf(join(dir, name))).join(" ");
}

function gitDir(repository: string): string {
  const dotGit = join(repository, ".git");
  try {
    // A worktree's or submodule's `.git` is a file: "gitdir: <path>".
    const pointer = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]?.trim();
    if (pointer) return isAbsolute(pointer) ? pointer : resolve(repository, pointer);
  } catch {
    // A folder (the usual case), or unreadable: its own files are looked at.
  }
  return dotGit;
}

function mtimeOf(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.mtimeNs}/${stat.size}/${stat.ino}`;
  } catch {
    return "none";
  }
}
