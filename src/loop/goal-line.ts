import type { Decision } from "../contracts/decisions.js";

/**
 * A goal check (seat turn.goal) as one line for a face: which command, how it went, which check
 * of the turn, and what follows — shown in `bosun run`'s text mode and the TUI's transcript, so
 * the person sees the turn go back to work rather than a silent extra step. Undefined for others.
 */
export function goalLine(decision: Decision): string | undefined {
  if (decision.seat !== "turn.goal") return undefined;
  const { command, exitCode, attempt } = decision.subject ?? {};
  const check = attempt ? ` (check ${attempt})` : "";
  if (typeof command !== "string") return `goal: ${decision.reasons[0]?.detail ?? "budget spent"}`;
  const ran = exitCode === 0 ? "passed" : typeof exitCode === "number" ? `exited ${exitCode}` : "could not run";
  const next =
    decision.answer === "continue"
      ? ": back to the model"
      : decision.answer === "out_of_budget"
        ? ": budget spent"
        : "";
  return `goal \`${command}\` ${ran}${check}${next}`;
}
