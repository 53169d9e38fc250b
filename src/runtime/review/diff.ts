import { execFile } from "node:child_process";
import { UsageError } from "../../errors.js";
import { findRepoRoot } from "../../util/repo.js";

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

/** How many new (untracked) files are shown whole; past it they are only named. */
const UNTRACKED_MAX_FILES = 100;

/**
 * The changes to review: `git diff <base>` (base to the work tree) plus the files git does not
 * track yet and does not ignore — a new file is a change a reviewer must see —, or with --staged
 * `git diff --cached <base>`. A base git does not know is a usage error naming it.
 */
export async function reviewDiff(where: string, options: { base?: string; staged?: boolean }): Promise<ReviewDiff> {
  // git runs at the root that holds `.git`: run in a folder the repository committed as a git
  // directory (HEAD, objects/, refs/, a config naming core.fsmonitor or a textconv), git would use
  // that one and run its programs as the person (context/environment.ts says the same).
  const cwd = findRepoRoot(where);
  if (!cwd) throw new UsageError(`bosun review compares git changes: ${where} is not in a git repository`);
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
  const args = [
    "diff",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    ...(options.staged ? ["--cached"] : []),
    base,
    "--",
  ];
  const result = await git(cwd, args);
  if (result.code !== 0) throw new UsageError(`git diff failed: ${result.stderr.trim() || `exit ${result.code}`}`);
  const text = options.staged ? result.stdout : result.stdout + (await untrackedDiff(cwd));
  const truncated = text.length > DIFF_MAX_CHARS;
  return {
    text: truncated ? `${text.slice(0, DIFF_MAX_CHARS)}\n[diff cut at ${DIFF_MAX_CHARS} characters]` : text,
    what: options.staged ? `staged changes against ${base}` : `${base}..work tree`,
    truncated,
  };
}

/** The new files as additions, each as `git diff --no-index` shows a file against nothing. */
async function untrackedDiff(cwd: string): Promise<string> {
  const listed = await git(cwd, ["ls-files", "--others", "--exclude-standard", "-z"]);
  if (listed.code !== 0) return "";
  const files = listed.stdout.split("\0").filter(Boolean);
  let text = "";
  for (const file of files.slice(0, UNTRACKED_MAX_FILES)) {
    // Exit 1 means "they differ", which a file against nothing always does.
    const shown = await git(cwd, [
      "diff",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      "--no-index",
      "--",
      "/dev/null",
      file,
    ]);
    if (shown.code === 0 || shown.code === 1) text += shown.stdout;
  }
  const left = files.length - UNTRACKED_MAX_FILES;
  if (left > 0)
    text += `\n[${left} more new files not shown: ${files.slice(UNTRACKED_MAX_FILES, UNTRACKED_MAX_FILES + 20).join(", ")}${left > 20 ? ", …" : ""}]\n`;
  return text;
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
