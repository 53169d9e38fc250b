import type { GoalSpec } from "../contracts/goal.js";
import { UsageError } from "../errors.js";

/**
 * --until's commands as the person's goal (seat turn.goal): `bosun run`'s turn, or the
 * interactive session's turns as /goal would set it. An empty one is a usage error: it could
 * never be checked. Kept apart from run.ts so the interactive launch loads no runtime for it.
 */
export function untilGoal(until: string[] | undefined): GoalSpec | undefined {
  if (until === undefined) return undefined;
  if (until.some((command) => command.trim() === "")) {
    throw new UsageError("--until needs a command that must exit 0, e.g. --until 'npm test'");
  }
  return { source: { kind: "person", surface: "flag" }, commands: until.map((command) => command.trim()) };
}
