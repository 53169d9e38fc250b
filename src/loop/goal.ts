/** What one run of a goal's check command gave: an exit code, or why it could not run. */
export type CheckResult = { ran: true; exitCode: number; output: string } | { ran: false; why: string };

/** A goal's budget (config keys to come; the defaults are the caller's). */
export interface GoalBudget {
  steps: number;
  ms: number;
  cost: number;
}

export interface GoalSpent {
  steps: number;
  ms: number;
  cost: number;
}

export type GoalVerdict =
  | { kind: "done"; reasons: string[] }
  | { kind: "again"; feedback: string; reasons: string[] }
  | { kind: "out_of_budget"; message: string; reasons: string[] };

/** Output fed back to the model is bounded: its tail, where a failing test says why. */
export const FEEDBACK_CHARS = 8_000;

/**
 * After the model ends a turn, a goal's (or recipe's) check decides (seat turn.goal): exit 0 is
 * done; anything else — a command that could not run included — is a failure, never success;
 * a failure goes back to the model unless the budget is spent.
 */
export function decideGoal(command: string, result: CheckResult, spent: GoalSpent, budget: GoalBudget): GoalVerdict {
  if (result.ran && result.exitCode === 0) return { kind: "done", reasons: [`\`${command}\` exited 0`] };
  const failed = result.ran
    ? `\`${command}\` exited ${result.exitCode}`
    : `\`${command}\` could not run: ${result.why}`;
  const over =
    spent.steps >= budget.steps
      ? `${spent.steps} steps of ${budget.steps}`
      : spent.ms >= budget.ms
        ? `${Math.round(spent.ms / 1000)} s of ${Math.round(budget.ms / 1000)} s`
        : spent.cost >= budget.cost
          ? `$${spent.cost.toFixed(2)} of $${budget.cost.toFixed(2)}`
          : undefined;
  if (over)
    return {
      kind: "out_of_budget",
      message: `goal not reached: ${failed}, budget spent (${over})`,
      reasons: [failed, over],
    };
  const output = result.ran ? result.output.slice(-FEEDBACK_CHARS) : result.why;
  return {
    kind: "again",
    feedback: `The goal check ${failed}:\n${output}\nContinue until it passes.`,
    reasons: [failed],
  };
}
