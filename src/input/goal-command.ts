import type { GoalSpec } from "../contracts/goal.js";

export interface GoalBudget {
  max_steps: number;
  max_seconds: number;
  max_cost: number;
}

/**
 * `/goal <command>` as a pure answer: the goal from now on (undefined: none) and the line to
 * show. `/goal` alone shows it; `/goal off` clears it. The terminal and the editor (ACP) keep the
 * goal each with their session; every turn then goes on until the command exits 0, within the
 * goal.* budgets (seat turn.goal, the person's).
 */
export function goalAnswer(
  now: GoalSpec | undefined,
  args: string,
  budget?: GoalBudget,
): { goal: GoalSpec | undefined; text: string } {
  const command = args.trim();
  if (command === "") return { goal: now, text: now ? `goal: ${describeGoal(now)}; /goal off clears it` : NO_GOAL };
  if (command === "off")
    return { goal: undefined, text: now ? `goal cleared (was ${describeGoal(now)})` : "no goal to clear" };
  const goal: GoalSpec = { source: { kind: "person", surface: "slash" }, commands: [command] };
  const within = budget ? ` (within ${budget.max_steps} steps, ${budget.max_seconds} s, $${budget.max_cost})` : "";
  return { goal, text: `goal set: each turn goes on until \`${command}\` exits 0${within}; /goal off clears it` };
}

const NO_GOAL = "no goal: /goal <command> keeps each turn going until the command exits 0";

function describeGoal(goal: GoalSpec): string {
  const commands = goal.commands.map((command) => `\`${command}\``).join(" and ");
  const whose = goal.source.kind === "recipe" ? ` (the checks of ${goal.source.file})` : "";
  return `until ${commands} ${goal.commands.length > 1 ? "exit" : "exits"} 0${whose}`;
}
