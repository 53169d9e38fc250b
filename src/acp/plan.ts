import type { PlanEntry } from "@agentclientprotocol/sdk";
import { TODO_STATUSES, type TodoStatus } from "../contracts/todo.js";

const STATUS: Readonly<Record<TodoStatus, PlanEntry["status"]>> = {
  pending: "pending",
  in_progress: "in_progress",
  done: "completed",
};

/**
 * The editor's plan from a todo call's input (the whole list, as the tool replaces it), or
 * undefined when the input is not a list the tool would take. bosun's todo items have no
 * priority: every entry is "medium".
 */
export function planOf(input: unknown): PlanEntry[] | undefined {
  const items = (input as { items?: unknown } | undefined)?.items;
  if (!Array.isArray(items)) return undefined;
  const entries: PlanEntry[] = [];
  for (const item of items) {
    const { content, status } = (item ?? {}) as { content?: unknown; status?: unknown };
    if (typeof content !== "string" || !(TODO_STATUSES as readonly unknown[]).includes(status)) return undefined;
    entries.push({ content, priority: "medium", status: STATUS[status as TodoStatus] });
  }
  return entries;
}
