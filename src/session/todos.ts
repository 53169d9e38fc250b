import type { TodoItem } from "../contracts/todo.js";
import type { StoredEvent } from "../store/session-store.js";
import { EV } from "./events.js";

/** The tool whose calls set the list (tools/todo.ts). */
const TODO_TOOL = "todo";

/**
 * The todo list as the session's latest todo call that succeeded left it; undefined when no
 * call set one. Read backwards from the end: the newest call is near it.
 */
export function latestTodos(events: readonly StoredEvent[]): TodoItem[] | undefined {
  let wanted: string | undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as StoredEvent;
    if (wanted === undefined && event.type === EV.callFinished) {
      const data = event.data as { id: string; name: string; isError: boolean };
      if (data.name === TODO_TOOL && !data.isError) wanted = data.id;
    } else if (wanted !== undefined && event.type === EV.callStarted) {
      const data = event.data as { id: string; input: { items?: unknown } };
      if (data.id === wanted) return Array.isArray(data.input.items) ? (data.input.items as TodoItem[]) : [];
    }
  }
  return undefined;
}

/** The items not done yet. */
export function openTodos(items: readonly TodoItem[] | undefined): TodoItem[] {
  return (items ?? []).filter((item) => item.status !== "done");
}

/** The list as the model and people read it: one line an item, its state first. */
export function todoLines(items: readonly TodoItem[]): string {
  const mark = { pending: "[ ]", in_progress: "[~]", done: "[x]" } as const;
  return items.map((item) => `${mark[item.status]} ${item.content}`).join("\n");
}
