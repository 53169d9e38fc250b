import type { LoadedConfig } from "../config/load.js";
import type { Reason } from "../contracts/decisions.js";
import type { GoalSpec } from "../contracts/goal.js";
import type { CheckResult, TurnGoal } from "../loop/goal.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import { type CheckHost, checkTail, noPrompt, runCheck } from "./checks.js";

/**
 * A turn's goal as the loop is handed it: the spec, the budget config says (each bound with where
 * it came from), and the one check runner (runtime/checks.ts). A recipe's checks from a
 * repository run as the repository's commands, judged by the gate (the turn's person asked when
 * there is one); the person's own goal and their own recipe's checks run as theirs.
 */
export function goalDeps(
  goals: { turn: GoalSpec | null | undefined; session: GoalSpec | undefined },
  config: LoadedConfig,
  where: Omit<CheckHost, "timeoutMs">,
  prompt: ApprovalPrompt | undefined,
): { goal?: TurnGoal } {
  // A goal this turn brings (/goal; null: none), else the session's (--until, a recipe's checks).
  const spec = goals.turn === undefined ? goals.session : goals.turn;
  if (!spec || spec.commands.length === 0) return {};
  // A person's check is bounded as a review's is: the longest a shell call may ask for.
  const host = { ...where, timeoutMs: config.config.shell.max_timeout_ms };
  return { goal: turnGoal(spec, config, host, prompt) };
}

function turnGoal(spec: GoalSpec, config: LoadedConfig, host: CheckHost, prompt: ApprovalPrompt | undefined): TurnGoal {
  const fromRepository = spec.source.kind === "recipe" && spec.source.fromRepository;
  const { max_steps, max_seconds, max_cost } = config.config.goal;
  return {
    spec,
    budget: { steps: max_steps, ms: max_seconds * 1000, cost: max_cost },
    budgetReasons: [
      budgetReason(config, "goal.max_steps", `${max_steps} steps`),
      budgetReason(config, "goal.max_seconds", `${max_seconds} s`),
      budgetReason(config, "goal.max_cost", `$${max_cost.toFixed(2)}`),
    ],
    check: async (command, signal): Promise<CheckResult> => {
      const ran = await runCheck(host, { command, fromRepository }, signal, prompt ?? noPrompt);
      if (ran.outcome === "not run") return { ran: false, why: notRunWhy(ran.exitCode, ran.output) };
      return { ran: true, exitCode: ran.exitCode ?? 1, output: ran.output };
    },
  };
}

function budgetReason(config: LoadedConfig, key: string, detail: string): Reason {
  const origin = config.origins.get(key);
  return { rule: "goal budget", detail, key, source: origin?.file ?? origin?.source ?? "built-in" };
}

/** Why a check could not run: the shell's "not found", the gate's refusal, a timeout — what its runner said of it. */
function notRunWhy(exitCode: number | null, output: string): string {
  const said = checkTail(output, 10).trim();
  if (exitCode === null) return said || "it did not run";
  const what = `exit ${exitCode}: the shell could not start it`;
  return said ? `${what}\n${said}` : what;
}
