import { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "../contracts/tools.js";

/** The task tool's arguments: public contract (rules, hooks and scripted tests name them). */
const schema = z.strictObject({
  agent: z.string().min(1).describe("The agent to hand the work to (one of those listed)"),
  prompt: z.string().min(1).describe("The whole task: the delegate sees nothing of this conversation but this"),
  description: z.string().max(120).optional().describe("A few words on the task, for people watching"),
  background: z
    .boolean()
    .optional()
    .describe("Start it and go on; its result arrives as a notice at a later step (default: wait for it)"),
  task_id: z
    .string()
    .optional()
    .describe("Continue an earlier task of this session (its task_id) instead of starting a new one"),
});

export type TaskInput = z.infer<typeof schema>;

/** An agent the task tool can start, as the model is told of it. */
export interface DelegateChoice {
  name: string;
  description?: string;
  readOnly: boolean;
}

/**
 * Runs a task in a delegate: the runtime implements it (runtime/delegate.ts), since a delegate is
 * a session of its own with its own authority, which this layer knows nothing of. It never
 * throws for what the model can act on: an unknown agent, a limit, a failed or cancelled child
 * come back as error results.
 */
export interface Delegator {
  run(input: TaskInput, context: ToolContext): Promise<ToolResult>;
}

/**
 * The `task` tool: one request, `delegate:<agent>`, judged like any other (a rule can deny one
 * agent, ask for another). What the delegate then does is judged call by call in its own
 * session, under an authority never wider than this one's (permission/rules/delegate.ts).
 */
export function taskTool(agents: readonly DelegateChoice[], delegator: Delegator): Tool<TaskInput> {
  const listed = agents
    .map((a) => `- ${a.name}${a.readOnly ? " (read-only)" : ""}${a.description ? `: ${a.description}` : ""}`)
    .join("\n");
  return {
    name: "task",
    description: [
      "Hand a self-contained piece of work to another agent, which works in its own session with at most your permissions and returns its final answer.",
      "Give it everything it needs in `prompt`: it does not see this conversation. Several task calls in one reply run at once.",
      `Agents:\n${listed}`,
    ].join("\n"),
    schema,
    kind: "delegate",
    requests: async (input) => ({ requests: [{ action: "delegate", resource: input.agent }] }),
    execute: (input, context) => delegator.run(input, context),
  };
}
