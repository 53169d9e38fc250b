/**
 * A turn's goal (issue 20): commands that must pass once the model says it is done. Shared by
 * `--until`/`/goal` (the person's commands) and a recipe's `checks` (the recipe file's
 * commands: a repository's recipe brings repository commands, judged as such).
 */
export interface GoalSpec {
  source: GoalSource;
  commands: string[];
  /** How many failures are fed back before the turn fails (a recipe's `retries`); unset: only the budget bounds it. */
  retries?: number;
}

export type GoalSource =
  | { kind: "person"; surface: "flag" | "slash" | "server" }
  | { kind: "recipe"; file: string; fromRepository: boolean };
