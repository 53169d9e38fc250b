import type { Reason } from "../contracts/decisions.js";
import type { GoalSpec } from "../contracts/goal.js";

/** What one run of a goal's check command gave: an exit code, or why it could not run. */
export type CheckResult = { ran: true; exitCode: number; output: string } | { ran: false; why: string };

/** A goal's budget (config goal.max_steps, goal.max_seconds, goal.max_cost; the defaults are config's). */
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

/**
 * A turn's goal as the runtime hands it to the loop: the spec, its budget (and where each bound
 * came from, for the record), and how a command is checked — the loop runs no process itself.
 */
export interface TurnGoal {
  spec: GoalSpec;
  budget: GoalBudget;
  budgetReasons: Reason[];
  check: (command: string, signal: AbortSignal) => Promise<CheckResult>;
}

/** How many failures went back to the model so far, and how many may (a recipe's `retries`). */
export interface GoalTries {
  failures: number;
  retries?: number;
}

export type GoalVerdict =
  | { kind: "done"; reasons: string[] }
  | { kind: "again"; feedback: string; reasons: string[] }
  | { kind: "out_of_budget"; message: string; reasons: string[] };

/** Output fed back to the model is bounded: its tail, where a failing test says why. */
export const FEEDBACK_CHARS = 8_000;

/** Which bound, if any, the spending has reached. */
export function overBudget(spent: GoalSpent, budget: GoalBudget): string | undefined {
  if (spent.steps >= budget.steps) return `${spent.steps} steps of ${budget.steps}`;
  if (spent.ms >= budget.ms) return `${(spent.ms / 1000).toFixed(1)} s of ${budget.ms / 1000} s`;
  if (spent.cost >= budget.cost) return `$${spent.cost.toFixed(2)} of $${budget.cost.toFixed(2)}`;
  return undefined;
}

/**
 * After the model ends a turn, a goal's (or recipe's) check decides (seat turn.goal): exit 0 is
 * done; anything else — a command that could not run included — is a failure, never success;
 * a failure goes back to the model unless the budget (or the recipe's retries) is spent.
 */
export function decideGoal(
  command: string,
  result: CheckResult,
  spent: GoalSpent,
  budget: GoalBudget,
  tries: GoalTries = { failures: 0 },
): GoalVerdict {
  if (result.ran && result.exitCode === 0) return { kind: "done", reasons: [`\`${command}\` exited 0`] };
  const failed = result.ran
    ? `\`${command}\` exited ${result.exitCode}`
    : `\`${command}\` could not run: ${result.why.trim().split("\n")[0]}`;
  const over =
    overBudget(spent, budget) ??
    (tries.retries !== undefined && tries.failures >= tries.retries
      ? `${tries.failures} of ${tries.retries} retries`
      : undefined);
  if (over)
    return {
      kind: "out_of_budget",
      message: `goal not reached: ${failed}, budget spent (${over})`,
      reasons: [failed, over],
    };
  // What could not run said the first line of its why already: the rest (a shell's "not found") follows.
  const output = (result.ran ? result.output : result.why.trim().split("\n").slice(1).join("\n")).slice(
    -FEEDBACK_CHARS,
  );
  return {
    kind: "again",
    feedback: `The goal check ${failed}:\n${output}\nContinue until it passes.`,
    reasons: [failed],
  };
}
