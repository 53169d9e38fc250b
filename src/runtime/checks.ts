import type { ApprovalPrompt } from "../permission/gate/approval.js";
import type { Runtime } from "./open.js";
import { runOwnCheck } from "./own-check.js";

/**
 * The one check runner: a command that must pass (a review's check, a goal's, a recipe's).
 * Whose command it is settles how it runs: one a repository brings (its bosun.json, its recipe)
 * goes through the session's call pipeline as a shell call of the repository's — judged by the
 * gate, sealed, never by the project's own rules; the person's own (their flag, their config,
 * their recipe) runs as their hooks do, unjudged. Either way bounded; what could not run is
 * "not run", which every caller counts as a failure, never as a pass.
 */
export interface Check {
  command: string;
  fromRepository: boolean;
}

export interface CheckRun {
  outcome: "passed" | "failed" | "not run";
  exitCode: number | null;
  /** The output as the runner bounded it (its end kept); a refusal's or a timeout's reason included. */
  output: string;
}

/** What a check is run through: the session's span runner, where it works, and the bound of a person's check. */
export interface CheckHost {
  runSpan: Runtime["runSpan"];
  cwd: string;
  timeoutMs: number;
}

/** Exit codes a shell gives a command it could not start: not found, not executable. */
const CANNOT_RUN = new Set([126, 127]);

/** Nobody is asked about a repository's check unless the caller brings the person: what the rules do not allow is not run. */
export const noPrompt: ApprovalPrompt = {
  ask: async () => ({ kind: "unanswered", why: "nobody is asked about a repository's check here" }),
};

export async function runCheck(
  host: CheckHost,
  check: Check,
  signal: AbortSignal,
  prompt: ApprovalPrompt = noPrompt,
): Promise<CheckRun> {
  const ran = check.fromRepository
    ? await host.runSpan(check.command, prompt, signal)
    : await runOwnCheck(check.command, host.cwd, host.timeoutMs, signal);
  const outcome: CheckRun["outcome"] =
    ran.exitCode === null || CANNOT_RUN.has(ran.exitCode) ? "not run" : ran.exitCode === 0 ? "passed" : "failed";
  return { outcome, exitCode: ran.exitCode, output: ran.output };
}

/** The last lines of a check's output, for a report. */
export function checkTail(output: string, lines = 20): string {
  return output.trimEnd().split("\n").slice(-lines).join("\n");
}
