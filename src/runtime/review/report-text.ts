import { printableLine } from "../../util/printable.js";
import { reaches } from "./findings.js";
import type { ReviewReport } from "./run.js";

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
    // A repository's check names its own name and command, and its output is whatever it printed: text only.
    lines.push(`check ${printableLine(check.name)}: ${how} — ${printableLine(check.command)}`);
    if (check.outcome !== "passed" && check.tail) {
      lines.push(...check.tail.split("\n").map((line) => `    ${printableLine(line)}`));
    }
  }
  if (report.diff.truncated) lines.push(`note: the diff was cut; the reviewer saw only its start`);
  for (const f of report.findings) {
    // The model's words: shown as text that cannot drive the terminal.
    lines.push(
      `${f.severity.toUpperCase()} ${printableLine(f.file)}${f.line ? `:${f.line}` : ""}: ${printableLine(f.text)}`,
    );
  }
  // The error quotes the model's answer (an unknown key's name, the turn's message): text only.
  if (report.reviewerError) lines.push(`the reviewer gave no usable answer: ${printableLine(report.reviewerError)}`);
  const bad = report.checks.filter((check) => check.outcome !== "passed");
  if (bad.length > 0) {
    lines.push(
      `review failed: ${bad.map((c) => `${printableLine(c.name)} ${c.outcome === "failed" ? "failed" : "could not run"}`).join(", ")}`,
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
