import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { findRepoRoot } from "../util/repo.js";

const run = promisify(execFile);

/** What the model is told about where it works. Re-checked before every step; sent only when it changed. */
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
  // One git process for both answers: it runs before every step.
  try {
    const { stdout } = await run("git", ["status", "--porcelain=v2", "--branch", "--untracked-files=normal"], {
      cwd,
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
