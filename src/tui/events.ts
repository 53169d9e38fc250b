import type { RunEvent } from "../loop/turn.js";
import type { TranscriptItem } from "./transcript.js";

/** A run event into the transcript: text streams into the last assistant item, calls get one line each. */
export function applyEvent(items: readonly TranscriptItem[], event: RunEvent): TranscriptItem[] {
  const list = [...items];
  switch (event.type) {
    case "text": {
      const last = list.at(-1);
      if (last?.kind === "assistant") list[list.length - 1] = { ...last, text: last.text + event.text };
      else list.push({ kind: "assistant", text: event.text });
      return list;
    }
    case "tool_call":
      list.push({
        kind: "tool",
        id: event.id,
        name: event.name,
        title: callTitle(event.name, event.input),
        status: "running",
      });
      return list;
    case "tool_result":
      return list.map((item) =>
        item.kind === "tool" && item.id === event.id
          ? {
              ...item,
              status: event.isError ? "error" : "done",
              summary: event.summary,
              ...(event.detail ? { detail: event.detail } : {}),
            }
          : item,
      );
    case "error":
      list.push({ kind: "notice", text: `error: ${event.message}` });
      return list;
    default:
      return list;
  }
}

/** The tool calls after the person's last message. */
export function lastTurnCalls(items: readonly TranscriptItem[]): Array<Extract<TranscriptItem, { kind: "tool" }>> {
  let start = items.length;
  while (start > 0 && items[start - 1]?.kind !== "user") start--;
  return items.slice(start).filter((item) => item.kind === "tool");
}

/** A call as one line: the tool and its main argument (`shell npm test`, `read src/a.ts`), else its arguments. */
export function callTitle(name: string, input: unknown): string {
  const args = (input ?? {}) as Record<string, unknown>;
  const main = ["command", "path", "pattern", "name"].map((key) => args[key]).find((v) => typeof v === "string");
  const text = typeof main === "string" ? `${name} ${main}` : `${name} ${JSON.stringify(input)}`;
  const line = text.split("\n")[0] ?? text;
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/**
 * How many leading items of a running turn are final: the person's messages, notices, finished
 * calls, and assistant text something came after. They can be drawn once (Ink's Static), so a
 * long turn does not redraw its whole past on every streamed word.
 */
export function finishedPrefix(items: readonly TranscriptItem[]): number {
  let count = 0;
  for (const [index, item] of items.entries()) {
    const final =
      item.kind === "tool" ? item.status !== "running" : item.kind === "assistant" ? index < items.length - 1 : true;
    if (!final) break;
    count++;
  }
  return count;
}
