import type { GoalSpec } from "../contracts/goal.js";
import type { RunEvent } from "../loop/turn.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import type { SubRecipe } from "./sub-recipe.js";

/** What opens a live session: `bosun run`'s flags, shared with the interactive terminal. */
export interface SessionOptions {
  model?: string;
  agent?: string;
  continue?: boolean;
  session?: string;
  fork?: boolean;
  auto?: boolean;
  mode?: string;
  allow?: string[];
  ask?: string[];
  deny?: string[];
  trustProject?: boolean;
  maxSteps?: number;
  title?: string;
  /** A custom command whose front matter chooses the agent or model for its one turn. */
  command?: CommandChoice;
  /** Checks that must pass before the turn is done: `--until`, or a recipe's checks. */
  goal?: GoalSpec;
  /** Where `mode` was chosen when not by the --mode flag (a recipe's file), for the record. */
  modeChoice?: { rule: string; source: string; holder?: "config" };
  /** A recipe's sub_recipes, which the task tool runs by name (`recipe`) as delegates that are them. */
  subRecipes?: SubRecipe[];
}

/** A custom command's `agent:` and `model:` (or a recipe's), with the file that says so. */
export interface CommandChoice {
  name: string;
  file: string;
  /** A recipe's settings rather than a custom command's front matter (how the choice is named on record). */
  kind?: "command" | "recipe";
  agent?: string;
  model?: string;
}

/** What a face brings to one turn. */
export type TurnIo = {
  emit: (event: RunEvent) => void;
  signal: AbortSignal;
  prompt?: ApprovalPrompt;
  steering?: () => string[];
  /** This turn's goal (the interactive session's /goal), over the session's; null: none. */
  goal?: GoalSpec | null;
};
