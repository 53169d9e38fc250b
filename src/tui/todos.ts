import { TODO_STATUSES, type TodoItem } from "../contracts/todo.js";
import type { TranscriptItem } from "./transcript.js";

// No Ink here: events.ts and past.ts read it before Ink has loaded.

/** A todo call's list, as the model wrote it (checked loosely: a face shows, it does not judge). */
export function todoOf(name: string, input: unknown): { todo?: TodoItem[] } {
  if (name !== "todo" || typeof input !== "object" || input === null) return {};
  const items = (input as { items?: unknown }).items;
  if (!Array.isArray(items)) return {};
  const todo = items.filter(
    (i): i is TodoItem =>
      typeof i?.content === "string" && (TODO_STATUSES as readonly unknown[]).includes((i as TodoItem).status),
  );
  return { todo };
}

/** The plan as it stands: the latest todo call that succeeded; undefined once every item is done. */
export function currentTodos(items: readonly TranscriptItem[]): TodoItem[] | undefined {
  for (let at = items.length - 1; at >= 0; at--) {
    const item = items[at];
    if (item?.kind !== "tool" || !item.todo || item.status !== "done") continue;
    return item.todo.some((t) => t.status !== "done") ? item.todo : undefined;
  }
  return undefined;
}
