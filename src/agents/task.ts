import { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "../contracts/tools.js";

/** The task tool's arguments: public contract (rules, hooks and scripted tests name them). */
const schema = z
  .strictObject({
    agent: z
      .string()
      .min(1)
      .optional()
      .describe("The agent to hand the work to (one of those listed); with recipe, the sub-recipe's own"),
    prompt: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The whole task: the delegate sees nothing of this conversation but this (with recipe: added after its prompt, if given)",
      ),
    recipe: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Run a sub-recipe of this run's recipe (one of those listed) as the delegate, instead of agent and prompt",
      ),
    params: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe("The sub-recipe's parameters, by name (those the parent shares are filled in already)"),
    description: z.string().max(120).optional().describe("A few words on the task, for people watching"),
    background: z
      .boolean()
      .optional()
      .describe("Start it and go on; its result arrives as a notice at a later step (default: wait for it)"),
    task_id: z
      .string()
      .optional()
      .describe("Continue an earlier task of this session (its task_id) instead of starting a new one"),
  })
  .superRefine((input, context) => {
    if (input.recipe !== undefined) return;
    for (const key of ["agent", "prompt"] as const) {
      if (input[key] === undefined)
        context.addIssue({ code: "custom", path: [key], message: `required (unless recipe names a sub-recipe)` });
    }
  });

/** The task tool's arguments as the model gives them. */
export type TaskArgs = z.infer<typeof schema>;

/** A task as the delegate runs it: its agent and prompt settled (a sub-recipe's, when it names one). */
export type TaskInput = TaskArgs & { agent: string; prompt: string };

/** A sub-recipe the task tool offers: its name, title and agent. */
export interface RecipeChoice {
  name: string;
  title: string;
  agent: string;
  parameters: string[];
}

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
  run(input: TaskArgs, context: ToolContext): Promise<ToolResult>;
}

/**
 * The `task` tool: one request, `delegate:<agent>`, judged like any other (a rule can deny one
 * agent, ask for another). What the delegate then does is judged call by call in its own
 * session, under an authority never wider than this one's (permission/rules/delegate.ts).
 */
export function taskTool(
  agents: readonly DelegateChoice[],
  delegator: Delegator,
  recipes: readonly RecipeChoice[] = [],
): Tool<TaskArgs> {
  const listed = agents
    .map((a) => `- ${a.name}${a.readOnly ? " (read-only)" : ""}${a.description ? `: ${a.description}` : ""}`)
    .join("\n");
  const subs = recipes
    .map(
      (r) =>
        `- ${r.name} (${r.title}): agent ${r.agent}${r.parameters.length > 0 ? `; params ${r.parameters.join(", ")}` : ""}`,
    )
    .join("\n");
  return {
    name: "task",
    description: [
      "Hand a self-contained piece of work to another agent, which works in its own session with at most your permissions and returns its final answer.",
      "Give it everything it needs in `prompt`: it does not see this conversation. Several task calls in one reply run at once.",
      `Agents:\n${listed}`,
      ...(subs
        ? [
            `Sub-recipes of this run's recipe (give recipe and params instead of agent and prompt: the delegate runs it, its checks and response schema included):\n${subs}`,
          ]
        : []),
    ].join("\n"),
    schema,
    kind: "delegate",
    // A sub-recipe's delegate is its agent's; a name not offered is refused when the call runs (seat delegate.recipe).
    requests: async (input) => ({
      requests: [
        {
          action: "delegate",
          resource: recipes.find((r) => r.name === input.recipe)?.agent ?? input.agent ?? "build",
        },
      ],
    }),
    execute: (input, context) => delegator.run(input, context),
  };
}
