import { UsageError } from "../../errors.js";
import { parseSeverity } from "../../runtime/review/findings.js";
import { reportText } from "../../runtime/review/report-text.js";
import { runReview } from "../../runtime/review/run.js";

export interface ReviewOptions {
  base?: string;
  staged?: boolean;
  failOn?: string;
  format?: string;
  model?: string;
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
  const report = await runReview({
    cwd: process.cwd(),
    failOn,
    ...(options.base !== undefined ? { base: options.base } : {}),
    ...(options.staged ? { staged: true } : {}),
    ...(options.model ? { model: options.model } : {}),
  });
  process.stdout.write(format === "json" ? `${JSON.stringify(report)}\n` : reportText(report));
  process.exitCode = report.exitCode;
}
