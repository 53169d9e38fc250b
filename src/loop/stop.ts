import type { StopInput } from "../permission/gate/lifecycle.js";
import { decideStopHooks, type StopHookVerdict } from "../permission/gate/stop-hook.js";
import { checkGoal } from "./goal-check.js";
import type { StepNext, TurnRun } from "./step.js";

/** The turn's stop hooks, as the runtime hands them in: run and judged, not yet recorded. */
export type StopHooks = (input: StopInput) => Promise<StopHookVerdict[]>;

/**
 * The model is done (seat turn.done): its stop hooks may still send it back (seat
 * turn.stop_hook, each recorded). Returns the turn's end, or undefined to go on with the next
 * step, the hooks' reasons told to the model. Once they let it end, the turn's goal is checked
 * (seat turn.goal, goal-check.ts): done means checked.
 */
export async function afterStopHooks(run: TurnRun, step: number, text: string): Promise<StepNext> {
  const { deps, recorder } = run;
  if (!deps.stopHooks) return checkGoal(run, step);
  const verdicts = await deps.stopHooks({ step, lastText: text, blocksSoFar: run.stopBlocks });
  for (const { reason: _, failure: __, hook, event, ...verdict } of verdicts)
    recorder.decision({ seat: "turn.stop_hook", ...verdict, subject: { step, hook, event } });
  const origin = deps.config.origins.get("hooks.stop_limit");
  const next = decideStopHooks(verdicts, run.stopBlocks, {
    value: deps.config.config.hooks.stop_limit,
    source: origin?.file ?? origin?.source ?? "built-in",
    written: origin !== undefined && origin.layer !== "default",
  });
  if (next.kind === "done") return checkGoal(run, step);
  if (next.kind === "failed") return { status: "failed", steps: step, message: next.message };
  if (next.kind === "limit") {
    recorder.decision({
      seat: "turn.stop_hook",
      ...next.decision,
      subject: { step, event: verdicts[0]?.event ?? "stop" },
    });
    return { status: "limit", steps: step, message: next.message };
  }
  run.stopBlocks++;
  recorder.notice({ text: `A stop hook says the task is not done yet:\n${next.reason}\nContinue the work.` });
  return undefined;
}
