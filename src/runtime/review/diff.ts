import { execFile } from "node:child_process";
import { UsageError } from "../../errors.js";

/** The longest diff given to the reviewer whole; beyond it the rest is cut, and said so. */
export const DIFF_MAX_CHARS = 200_000;
/** How long git may take to produce the diff. */
const GIT_TIMEOUT_MS = 30_000;

export interface ReviewDiff {
  text: string;
  /** What was compared, for the prompt and the report: "HEAD..work tree", "staged changes against HEAD". */
  what: string;
  truncated: boolean;
}

/**
 * The changes to review: `git diff <base>` (base to the work tree, tracked files), or with
 * --staged `git diff --cached <base>`. A base git does not know is a usage error naming it.
 */
export async function reviewDiff(cwd: string, options: { base?: string; staged?: boolean }): Promise<ReviewDiff> {
  const base = options.base ?? "HEAD";
  if (base.startsWith("-")) throw new UsageError(`--base must name a git ref, not "${base}"`);
  const verify = await git(cwd, ["rev-parse", "--verify", "--quiet", `${base}^{commit}`]);
  if (verify.code !== 0) {
    throw new UsageError(
      options.base === undefined
        ? "nothing to compare against: this repository has no commit yet (give --base <ref>)"
        : `--base: git knows no commit "${base}"`,
    );
  }
  const args = ["diff", "--no-color", "--no-ext-diff", ...(options.staged ? ["--cached"] : []), base, "--"];
  const result = await git(cwd, args);
  if (result.code !== 0) throw new UsageError(`git diff failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  const truncated = result.stdout.length > DIFF_MAX_CHARS;
  return {
    text: truncated
      ? `${result.stdout.slice(0, DIFF_MAX_CHARS)}\n[diff cut at ${DIFF_MAX_CHARS} characters]`
      : result.stdout,
    what: options.staged ? `staged changes against ${base}` : `${base}..work tree`,
    truncated,
  };
}

function git(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "git",
      args,
      { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 128) : 0;
        resolve({ code, stdout, stderr: error && !stderr ? String(error.message) : stderr });
      },
    );
  });
}
