import type { Decision } from "../../contracts/decisions.js";
import type { ApprovalPrompt } from "../../permission/gate/approval.js";
import { checkTail, runCheck } from "../checks.js";
import type { Runtime } from "../open.js";

/**
 * The project's review checks (config review.checks), run one after another through the
 * session's call pipeline: a check a repository's bosun.json brings is a command it brings,
 * judged by the gate like any shell call of the repository's (sealed, never by the project's own
 * rules); the person's own (their config) runs as theirs. Each result is recorded (seat
 * review.check). They run through the one check runner goals and recipes use (runtime/checks.ts).
 */
export interface CheckResult {
  name: string;
  command: string;
  outcome: "passed" | "failed" | "not run";
  exitCode: number | null;
  /** The output's last lines, for the report. */
  tail: string;
}

export async function runChecks(
  live: Pick<Runtime, "config" | "runSpan" | "record">,
  cwd: string,
  signal: AbortSignal,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const { check, key, source, fromRepository } of configuredChecks(live.config)) {
    const host = { runSpan: live.runSpan, cwd, timeoutMs: live.config.config.shell.max_timeout_ms };
    const ran = await runCheck(host, { command: check.command, fromRepository }, signal, noPrompt);
    const result = {
      name: check.name,
      command: check.command,
      outcome: ran.outcome,
      exitCode: ran.exitCode,
      tail: checkTail(ran.output),
    };
    results.push(result);
    live.record(checkDecision(result, key, source, fromRepository));
  }
  return results;
}

/**
 * Every layer's checks, lowest first, as hooks are (permission/gate/hooks.ts): an array is a leaf
 * a higher layer replaces whole, so a repository's `"checks": []` would otherwise silence the
 * person's own checks and the review would pass clean.
 */
export function configuredChecks(config: Runtime["config"]) {
  return config.documents.flatMap((doc) =>
    (doc.data.review?.checks ?? []).map((check, index) => ({
      check,
      key: `review.checks[${index}]`,
      source: `${doc.file ?? doc.source}${doc.lineOf?.(["review", "checks", index]) ? `:${doc.lineOf(["review", "checks", index])}` : ""}`,
      fromRepository: doc.layer === "project",
    })),
  );
}

/** Seat review.check: what one check's run came to. */
export function checkDecision(result: CheckResult, key: string, source: string, fromRepository: boolean): Decision {
  return {
    seat: "review.check",
    holder: "code",
    answer: result.outcome,
    reasons: [
      {
        rule: result.outcome === "passed" ? "exit 0" : result.outcome === "failed" ? "non-zero exit" : "could not run",
        detail: `${result.name}: ${result.command} → ${result.exitCode === null ? "not run" : `exit ${result.exitCode}`}`,
        decisive: true,
      },
      {
        rule: fromRepository ? "a check the repository's config brings" : "a check of the user's config",
        detail: result.command,
        source,
        key,
      },
    ],
  };
}

/** Nobody is asked about a repository's check: what the rules do not allow is not run (and so fails the review). */
const noPrompt: ApprovalPrompt = {
  ask: async () => ({ kind: "unanswered", why: "bosun review asks nobody about a repository's check" }),
};
