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
  const git = async (...args: string[]) =>
    (await run("git", args, { cwd, timeout: 5_000, maxBuffer: 4 * 1024 * 1024 })).stdout.trim();
  const [branch, status] = await Promise.allSettled([
    git("symbolic-ref", "--quiet", "--short", "HEAD").catch(
      async () => `detached at ${await git("rev-parse", "--short", "HEAD")}`,
    ),
    git("status", "--porcelain", "--untracked-files=normal"),
  ]);
  if (branch.status === "fulfilled" && branch.value) env.branch = branch.value;
  if (status.status === "fulfilled") env.dirty = status.value !== "";
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
