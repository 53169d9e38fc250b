import { parseSeverity, type Severity } from "../runtime/review/findings.js";
import { reportText } from "../runtime/review/report-text.js";
import { type ReviewRequest, runReview } from "../runtime/review/run.js";

/**
 * `/review [--base <ref>] [--staged] [--fail-on <severity>]` in the interactive session: the same
 * review as `bosun review`, in a session of its own (the reviewer is read-only; this session's
 * agent and approvals are not its) with this session's model, its report shown as text. Bad
 * arguments are said, not run. Loaded only when /review is used.
 */
export async function reviewInTui(args: string, cwd: string, signal: AbortSignal, model?: string): Promise<string> {
  const parsed = parseReviewArgs(args);
  if ("error" in parsed) return `/review: ${parsed.error}`;
  try {
    const report = await runReview({ cwd, ...parsed, ...(model ? { model } : {}) }, signal);
    const text = reportText(report).trimEnd();
    return report.session ? `${text}\n(review session ${report.session}: bosun why ${report.session})` : text;
  } catch (error) {
    return `/review: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function parseReviewArgs(args: string): Omit<ReviewRequest, "cwd"> | { error: string } {
  const words = args.split(/\s+/).filter(Boolean);
  let failOn: Severity = "high";
  const request: { base?: string; staged?: boolean } = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "--staged") request.staged = true;
    else if (word === "--base" || word === "--fail-on") {
      const value = words[++i];
      if (value === undefined) return { error: `${word} needs a value` };
      if (word === "--base") request.base = value;
      else {
        const severity = parseSeverity(value);
        if (!severity) return { error: `--fail-on must be info, low, medium, high or critical, not "${value}"` };
        failOn = severity;
      }
    } else return { error: `unknown argument "${word}" (use --base <ref>, --staged, --fail-on <severity>)` };
  }
  return { ...request, failOn };
}
