import { openRuntime, type Runtime, type SessionOptions } from "../open.js";
import { type CheckResult, runChecks } from "./checks.js";
import { type ReviewDiff, reviewDiff } from "./diff.js";
import { type Finding, parseFindings, reaches, retryPrompt, reviewPrompt, type Severity } from "./findings.js";

/** The agent that reads the diff: the built-in read-only one, so no route lets it edit. */
const REVIEWER_AGENT = "plan";

type Status = "clean" | "findings" | "failed" | "empty";

/** What `--format json` prints: one object (README "bosun review"). */
export interface ReviewReport {
  status: Status;
  exitCode: number;
  diff: { what: string; truncated: boolean };
  failOn: Severity;
  checks: CheckResult[];
  findings: Finding[];
  /** Why the reviewer gave no usable answer, when it did not. */
  reviewerError?: string;
  session?: string;
}

/** What a review compares and against what it fails; the faces parse it from flags or a slash command. */
export interface ReviewRequest {
  cwd: string;
  base?: string;
  staged?: boolean;
  failOn: Severity;
  model?: string;
}

/**
 * A review: the diff, then (unless it is empty) the configured checks and the read-only
 * reviewer, settled into one report. Each face prints it its own way.
 */
export async function runReview(request: ReviewRequest, signal?: AbortSignal): Promise<ReviewReport> {
  const diff = await reviewDiff(request.cwd, request);
  const report: ReviewReport = {
    status: "empty",
    exitCode: 0,
    diff: { what: diff.what, truncated: diff.truncated },
    failOn: request.failOn,
    checks: [],
    findings: [],
  };
  if (diff.text.trim() !== "") await reviewWith(report, diff, request, signal);
  return report;
}

async function reviewWith(
  report: ReviewReport,
  diff: ReviewDiff,
  options: ReviewRequest,
  outer?: AbortSignal,
): Promise<void> {
  const { cwd } = options;
  const controller = new AbortController();
  if (outer) {
    if (outer.aborted) controller.abort(outer.reason);
    else outer.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
  }
  const open = (extra: Partial<SessionOptions>) =>
    openRuntime({
      cwd,
      options: { ...(options.model ? { model: options.model } : {}), ...extra },
      firstMessage: `review ${diff.what}`,
      interactive: false,
      onDecision: () => {},
      onLeaseLost: () => controller.abort(new Error("another run took over this session")),
      signal: controller.signal,
    });
  // The checks run under the session's own agent: the reviewer's read-only rules are not theirs.
  const first = await open({ title: `review ${diff.what}` });
  try {
    report.session = first.session.id;
    report.checks = await runChecks(first, cwd, controller.signal);
  } finally {
    await first.close();
  }
  const reviewer = await open({ agent: REVIEWER_AGENT, session: report.session });
  try {
    const answer = await reviewerAnswer(reviewer, diff, controller.signal);
    if ("error" in answer) report.reviewerError = answer.error;
    else report.findings = answer.findings;
    settle(report);
    reviewer.record({
      seat: "review.verdict",
      holder: "code",
      answer: report.status,
      reasons: verdictReasons(report),
    });
  } finally {
    await reviewer.close();
  }
}

/** The reviewer's findings: asked once more when its answer does not parse, then an error. */
async function reviewerAnswer(
  live: Runtime,
  diff: ReviewDiff,
  signal: AbortSignal,
): Promise<{ findings: Finding[] } | { error: string }> {
  let message = reviewPrompt(diff.text, diff.what);
  for (let attempt = 0; attempt < 2; attempt++) {
    const outcome = await live.turn({ text: message }, { emit: () => {}, signal });
    if (outcome.status !== "done")
      return { error: `the reviewer's turn ended ${outcome.status}: ${outcome.message ?? ""}`.trim() };
    const parsed = parseFindings(outcome.lastText ?? "");
    if ("findings" in parsed || attempt === 1) return parsed;
    message = retryPrompt(parsed.error);
  }
  return { error: "unreachable" };
}

function settle(report: ReviewReport): void {
  const checksFailed = report.checks.some((check) => check.outcome !== "passed");
  const blocking = report.findings.some((finding) => reaches(finding.severity, report.failOn));
  report.status =
    checksFailed || report.reviewerError !== undefined || blocking
      ? checksFailed || report.reviewerError !== undefined
        ? "failed"
        : "findings"
      : report.findings.length > 0
        ? "findings"
        : "clean";
  report.exitCode = checksFailed || report.reviewerError !== undefined || blocking ? 1 : 0;
}

function verdictReasons(report: ReviewReport) {
  const bad = report.checks.filter((check) => check.outcome !== "passed");
  const blocking = report.findings.filter((finding) => reaches(finding.severity, report.failOn));
  return [
    {
      rule: "exit code",
      detail: `${report.exitCode}: ${bad.length} of ${report.checks.length} checks not passed, ${blocking.length} of ${report.findings.length} findings at ${report.failOn} or above${report.reviewerError ? `; reviewer: ${report.reviewerError}` : ""}`,
      decisive: true,
    },
    { rule: "diff", detail: report.diff.what },
  ];
}
