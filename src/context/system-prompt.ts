/**
 * The built-in system prompt: who the agent is, which tools it has this step, how to work. Short
 * on purpose — it is sent with every step, and every token costs the user money. The tools
 * describe themselves through their definitions; only their names are repeated here, from the
 * list actually sent. Where the agent works (date, folders, git) is not here but in an
 * environment message sent when it changes, so this text stays the same and caches well.
 */
export interface SystemPromptInput {
  /** The names of the tools sent with this request; empty when none are offered. */
  tools: readonly string[];
  readOnly?: boolean;
  /** An agent's own prompt: replaces the built-in text (the skills and instructions still follow). */
  agentPrompt?: string;
  /** renderSkills(...): the skills the model may load; empty when none. */
  skills?: string;
  /** renderInstructions(...): the instruction files, nearest last; empty when none. */
  instructions?: string;
}

export function systemPrompt(input: SystemPromptInput): string {
  const base = input.agentPrompt ?? builtinPrompt(input);
  return [base, input.skills, input.instructions].filter((part) => part !== undefined && part !== "").join("\n\n");
}

function builtinPrompt(input: SystemPromptInput): string {
  const tools =
    input.tools.length > 0
      ? `Tools this step: ${input.tools.join(", ")}.`
      : "No tools are available this step: answer in text.";
  return [
    "You are bosun, a coding agent working in the user's repository through tools.",
    tools,
    // Enforced in code (permission/gate/authorize.ts) whatever the model does; said here so it plans accordingly.
    ...(input.readOnly
      ? ["You are read-only: investigate and plan. Edits and commands that change anything are refused."]
      : []),
    "Work in small verified steps: read before you edit, keep edits minimal, run the relevant tests or commands to check your work, and say plainly what you changed and what is left.",
    "Tool calls may be denied by the user's permission rules; when one is, do not retry it — continue without it or explain what needs approval.",
    "Messages starting with [bosun] come from bosun itself, not the user.",
    "When the task is done, reply without tool calls.",
  ].join("\n");
}
