import type { GoalSpec } from "../contracts/goal.js";
import type { SessionSlot } from "./session-slot.js";

/**
 * `/goal <command>`: every turn from now on goes on until the command exits 0, within the goal.*
 * budgets (seat turn.goal, the person's); `/goal` alone shows it; `/goal off` clears it. Kept with
 * the session's options, so a switch of model, agent or mode keeps it; a new session starts without.
 */
export function goalCommand(slot: SessionSlot, args: string): string {
  const now = slot.current.goal;
  const command = args.trim();
  if (command === "") return now ? `goal: ${describeGoal(now)}; /goal off clears it` : NO_GOAL;
  if (command === "off") {
    if (!now) return "no goal to clear";
    const { goal: _, ...rest } = slot.current;
    slot.current = rest;
    return `goal cleared (was ${describeGoal(now)})`;
  }
  const goal: GoalSpec = { source: { kind: "person", surface: "slash" }, commands: [command] };
  slot.current = { ...slot.current, goal };
  const budget = slot.live?.config.config.goal;
  const within = budget ? ` (within ${budget.max_steps} steps, ${budget.max_seconds} s, $${budget.max_cost})` : "";
  return `goal set: each turn goes on until \`${command}\` exits 0${within}; /goal off clears it`;
}

const NO_GOAL = "no goal: /goal <command> keeps each turn going until the command exits 0";

function describeGoal(goal: GoalSpec): string {
  const commands = goal.commands.map((command) => `\`${command}\``).join(" and ");
  const whose = goal.source.kind === "recipe" ? ` (the checks of ${goal.source.file})` : "";
  return `until ${commands} ${goal.commands.length > 1 ? "exit" : "exits"} 0${whose}`;
}
