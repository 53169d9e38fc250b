import type { Reason, RecordedDecision, Seat } from "./types.js";

/** One line per decision: seq, step, seat, holder, answer, and the reason that settled it. */
export function formatDecision(decision: RecordedDecision): string {
  const step = decision.subject?.step !== undefined ? `step ${decision.subject.step}` : "-";
  const about = decision.subject?.call ? ` [call ${decision.subject.call}]` : "";
  // Tolerant of a malformed row (from an old import): the ledger must always be readable.
  const reason = decisiveReason(Array.isArray(decision.reasons) ? decision.reasons : []);
  return `#${decision.seq}\t${step}\t${decision.seat}\t${decision.holder}\t${formatAnswer(decision.answer)}${about}${reason ? `\t— ${formatReason(reason)}` : ""}`;
}

export function formatAnswer(answer: unknown): string {
  return typeof answer === "string" ? answer : JSON.stringify(answer);
}

export function formatReason(reason: Reason): string {
  const where = [reason.source && (reason.line ? `${reason.source}:${reason.line}` : reason.source), reason.key]
    .filter(Boolean)
    .join(" ");
  return [reason.rule, reason.detail, where && `(${where})`].filter(Boolean).join(": ").replace(/: \(/, " (");
}

function decisiveReason(reasons: readonly Reason[]): Reason | undefined {
  return reasons.find((r) => r.decisive) ?? reasons[0];
}

/** The catalog as rows for a table. */
export function seatRow(seat: Seat): string[] {
  return [seat.id, seat.question, seat.holders.join(", "), seat.default, seat.fail, seat.config.join(", ") || "-"];
}
