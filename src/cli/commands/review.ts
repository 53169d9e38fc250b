import { UsageError } from "../../errors.js";
import { openRuntime, type Runtime, type SessionOptions } from "../../runtime/open.js";
import { type CheckResult, runChecks } from "../../runtime/review/checks.js";
import { type ReviewDiff, reviewDiff } from "../../runtime/review/diff.js";
import {
  type Finding,
  parseFindings,
  parseSeverity,
  reaches,
  retryPrompt,
  reviewPrompt,
  type Severity,
} from "../../runtime/review/findings.js";

export interface ReviewOptions {
  base?: string;
  staged?: boolean;
  failOn?: string;
  format?: string;
  model?: string;
}

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

/**
 * `bosun review`: the configured checks first, then the read-only reviewer over the diff. Exit 1
 * when a check failed or could not run, the reviewer gave no usable answer, or a finding reaches
 * --fail-on (default high); "no findings" only when every check ran and passed.
 */
export async function review(options: ReviewOptions): Promise<void> {
  const format = options.format ?? "text";
  if (format !== "text" && format !== "json") throw new UsageError(`--format must be text or json, not "${format}"`);
  const failOn = parseSeverity(options.failOn ?? "high");
  if (!failOn) throw new UsageError(`--fail-on must be info, low, medium, high or critical, not "${options.failOn}"`);
  const cwd = process.cwd();
  const diff = await reviewDiff(cwd, options);
  const report: ReviewReport = {
    status: "empty",
    exitCode: 0,
    diff: { what: diff.what, truncated: diff.truncated },
    failOn,
    checks: [],
    findings: [],
  };
  if (diff.text.trim() !== "") await reviewWith(report, diff, cwd, options);
  process.stdout.write(format === "json" ? `${JSON.stringify(report)}\n` : reportText(report));
  process.exitCode = report.exitCode;
}

async function reviewWith(report: ReviewReport, diff: ReviewDiff, cwd: string, options: ReviewOptions): Promise<void> {
  const controller = new AbortController();
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

/** The text report: checks, findings, then one line saying how it stands. */
export function reportText(report: ReviewReport): string {
  if (report.status === "empty") return `nothing to review: the diff (${report.diff.what}) is empty\n`;
  const lines: string[] = [];
  for (const check of report.checks) {
    const how =
      check.outcome === "passed"
        ? "passed"
        : check.outcome === "failed"
          ? `FAILED (exit ${check.exitCode})`
          : "COULD NOT RUN";
    lines.push(`check ${check.name}: ${how} — ${check.command}`);
    if (check.outcome !== "passed" && check.tail) lines.push(...check.tail.split("\n").map((line) => `    ${line}`));
  }
  if (report.diff.truncated) lines.push(`note: the diff was cut; the reviewer saw only its start`);
  for (const f of report.findings) {
    lines.push(`${f.severity.toUpperCase()} ${f.file}${f.line ? `:${f.line}` : ""}: ${f.text}`);
  }
  if (report.reviewerError) lines.push(`the reviewer gave no usable answer: ${report.reviewerError}`);
  const bad = report.checks.filter((check) => check.outcome !== "passed");
  if (bad.length > 0) {
    lines.push(
      `review failed: ${bad.map((c) => `${c.name} ${c.outcome === "failed" ? "failed" : "could not run"}`).join(", ")}`,
    );
  } else if (report.reviewerError) {
    lines.push("review failed: no findings could be read");
  } else if (report.findings.length === 0) {
    lines.push(`no findings (${report.checks.length} checks passed)`);
  } else {
    const blocking = report.findings.filter((f) => reaches(f.severity, report.failOn)).length;
    lines.push(`${report.findings.length} findings, ${blocking} at ${report.failOn} or above`);
  }
  return `${lines.join("\n")}\n`;
}
