import type { Reason } from "../contracts/decisions.js";

/** An answer as text: a string as it is, anything else as JSON. */
export function formatAnswer(answer: unknown): string {
  return typeof answer === "string" ? answer : JSON.stringify(answer);
}

/** A reason in one line: its rule, what it found, and where (file:line key) it came from. */
export function formatReason(reason: Reason): string {
  const where = [reason.source && (reason.line ? `${reason.source}:${reason.line}` : reason.source), reason.key]
    .filter(Boolean)
    .join(" ");
  return [reason.rule, reason.detail, where && `(${where})`].filter(Boolean).join(": ").replace(/: \(/, " (");
}

/** An answer as a person reads it: a list joined with commas, an empty one "none". */
export function answerText(answer: unknown): string {
  if (Array.isArray(answer) && answer.every((a) => ["string", "number", "boolean"].includes(typeof a))) {
    return answer.length === 0 ? "none" : answer.join(", ");
  }
  return formatAnswer(answer);
}
