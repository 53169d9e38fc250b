import type { Decision, Holder } from "../contracts/decisions.js";
import type { GoalSpec } from "../contracts/goal.js";
import { type CheckResult, decideGoal, type GoalVerdict, overBudget, type TurnGoal } from "./goal.js";
import type { StepNext, TurnRun } from "./step.js";

/** What a turn has spent toward its goal, and how its checks went so far. */
export interface GoalProgress {
  startedMs: number;
  cost: number;
  /** How many times the goal was checked (the model said it was done), and how many checks failed. */
  attempts: number;
  failures: number;
}

export function goalProgress(): GoalProgress {
  return { startedMs: Date.now(), cost: 0, attempts: 0, failures: 0 };
}

/**
 * The model is done and the stop hooks let the turn end: its goal's commands run in order (seat
 * turn.goal, each run recorded). All pass: done. One fails: its output's tail goes to the model
 * and the turn goes on — unless the budget or the recipe's retries are spent: then it fails.
 */
export async function checkGoal(run: TurnRun, step: number): Promise<StepNext> {
  const goal = run.deps.goal;
  const done = { status: "done" as const, steps: step };
  if (!goal || goal.spec.commands.length === 0) return done;
  const progress = run.goal;
  progress.attempts++;
  for (const command of goal.spec.commands) {
    const result = await goal.check(command, run.deps.signal);
    if (run.deps.signal.aborted) return { status: "cancelled", steps: step };
    const spent = { steps: step, ms: Date.now() - progress.startedMs, cost: progress.cost };
    const tries = {
      failures: progress.failures,
      ...(goal.spec.retries !== undefined ? { retries: goal.spec.retries } : {}),
    };
    const verdict = decideGoal(command, result, spent, goal.budget, tries);
    run.recorder.decision(goalDecision(goal, command, result, verdict, { step, attempt: progress.attempts }));
    if (verdict.kind === "done") continue;
    if (verdict.kind === "out_of_budget") return { status: "failed", steps: step, message: verdict.message };
    progress.failures++;
    run.recorder.notice({ text: verdict.feedback });
    return undefined;
  }
  return done;
}

/**
 * Before a step, when the turn has a goal: a budget spent while the model still works ends the
 * turn failed (seat turn.goal), as a check would — the goal is not reached.
 */
export function goalSpent(run: TurnRun, step: number): StepNext {
  const goal = run.deps.goal;
  if (!goal || goal.spec.commands.length === 0) return undefined;
  const progress = run.goal;
  const over = overBudget({ steps: step - 1, ms: Date.now() - progress.startedMs, cost: progress.cost }, goal.budget);
  if (!over) return undefined;
  const message = `goal not reached: budget spent (${over}) before the checks passed`;
  run.recorder.decision({
    seat: "turn.goal",
    holder: goalHolder(goal.spec),
    answer: "out_of_budget",
    reasons: [{ rule: "budget spent", detail: over, decisive: true }, ...goal.budgetReasons],
    subject: { step, commands: goal.spec.commands, attempt: progress.attempts, ...recipeOf(goal.spec) },
  });
  return { status: "failed", steps: step - 1, message };
}

/** The person's goal is the person's (--until, /goal); a recipe's checks are its file's (config). */
export function goalHolder(spec: GoalSpec): Holder {
  return spec.source.kind === "person" ? "person" : "config";
}

function recipeOf(spec: GoalSpec): Record<string, unknown> {
  return spec.source.kind === "recipe" ? { recipe: spec.source.file } : {};
}

/** How the person set the goal, as its reason says. */
const SURFACES: Record<Extract<GoalSpec["source"], { kind: "person" }>["surface"], string> = {
  flag: "--until",
  slash: "/goal",
  server: "the server message's until",
};

/** Seat turn.goal: one run of one command, and what it led to (passed, back to the model, or the turn failed). */
function goalDecision(
  goal: TurnGoal,
  command: string,
  result: CheckResult,
  verdict: GoalVerdict,
  at: { step: number; attempt: number },
): Decision {
  const answer = verdict.kind === "done" ? "passed" : verdict.kind === "again" ? "continue" : "out_of_budget";
  const { source } = goal.spec;
  const whose =
    source.kind === "person"
      ? { rule: "the person's goal", detail: SURFACES[source.surface] }
      : {
          rule: source.fromRepository ? "a check the repository's recipe brings" : "a check of the person's recipe",
          source: source.file,
        };
  return {
    seat: "turn.goal",
    holder: goalHolder(goal.spec),
    answer,
    reasons: [
      ...verdict.reasons.map((detail, index) => ({
        rule: index === 0 ? (result.ran ? `exit ${result.exitCode}` : "could not run") : "budget spent",
        detail,
        ...(index === verdict.reasons.length - 1 ? { decisive: true } : {}),
      })),
      whose,
      ...goal.budgetReasons,
    ],
    subject: {
      step: at.step,
      command,
      attempt: at.attempt,
      exitCode: result.ran ? result.exitCode : null,
      ...recipeOf(goal.spec),
    },
  };
}
