import { z } from "zod";
import { TODO_STATUSES } from "../contracts/todo.js";
import type { Tool } from "../contracts/tools.js";
import { openTodos, todoLines } from "../session/todos.js";

/** Items a list may hold: a plan, not a backlog. */
const MAX_ITEMS = 50;

const schema = z.strictObject({
  items: z
    .array(
      z.strictObject({
        content: z.string().min(1).max(500),
        status: z.enum(TODO_STATUSES),
      }),
    )
    .max(MAX_ITEMS),
});

export type TodoInput = z.infer<typeof schema>;

/**
 * The `todo` tool: the agent's plan for the task, replaced whole at each call. The session's
 * events keep it (session/todos.ts reads the latest); the turn's end considers its open items
 * (seat turn.done), a compaction keeps it, the faces show it. It touches nothing outside the
 * session: its one request is `todo:list`, allowed by default.
 */
export const todoTool: Tool<TodoInput> = {
  name: "todo",
  description:
    "Your plan for a task of several steps: send the whole list each call (it replaces the last); one item in_progress at a time.",
  schema,
  kind: "read",
  requests: async () => ({ requests: [{ action: "todo", resource: "list" }] }),
  async execute(input) {
    const open = openTodos(input.items);
    const counts = `${input.items.length - open.length} of ${input.items.length} done`;
    return {
      output: input.items.length === 0 ? "Todo list cleared." : `Todo list (${counts}):\n${todoLines(input.items)}`,
      summary: input.items.length === 0 ? "todo (cleared)" : `todo (${counts})`,
      metadata: { items: input.items.length, open: open.length },
    };
  },
};
