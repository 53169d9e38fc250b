import { goalLine } from "../loop/goal-line.js";
import type { RunEvent } from "../loop/turn.js";
import { printableDeep } from "../util/printable.js";
import { applyDelegate, delegateLive, settleDelegate } from "./delegate-view.js";
import { todoOf } from "./todos.js";
import type { TranscriptItem } from "./transcript.js";

/**
 * A run event into the transcript: text streams into the last assistant item, calls get one line
 * each. What the event carries (the model's words, a file's name, a server's answer) is text for
 * the screen, never escapes for the terminal: its control characters go first (lines stay).
 */
export function applyEvent(items: readonly TranscriptItem[], event: RunEvent): TranscriptItem[] {
  return applyPrintable(items, printableDeep(event));
}

function applyPrintable(items: readonly TranscriptItem[], event: RunEvent): TranscriptItem[] {
  const list = [...items];
  switch (event.type) {
    case "text": {
      const last = list.at(-1);
      if (last?.kind === "assistant") list[list.length - 1] = { ...last, text: last.text + event.text };
      else list.push({ kind: "assistant", text: event.text });
      return list;
    }
    case "reasoning": {
      // Folded: one line that counts the thinking as it streams; the text that follows starts its own item.
      const last = list.at(-1);
      if (last?.kind === "thinking") list[list.length - 1] = { ...last, chars: last.chars + event.text.length };
      else list.push({ kind: "thinking", chars: event.text.length });
      return list;
    }
    case "tool_call":
      list.push({
        kind: "tool",
        id: event.id,
        name: event.name,
        title: callTitle(event.name, event.input),
        status: "running",
        ...todoOf(event.name, event.input),
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
              ...(item.delegate
                ? { delegate: settleDelegate(item.delegate, event.isError === true, event.summary) }
                : {}),
            }
          : item,
      );
    case "tool_progress": {
      // On the latest call of that id, while it runs: a report after its result changes nothing.
      for (let at = list.length - 1; at >= 0; at--) {
        const item = list[at];
        if (item?.kind !== "tool" || item.id !== event.id) continue;
        if (item.status !== "running") break;
        list[at] = { ...item, progress: progressText(event) };
        return list;
      }
      return items as TranscriptItem[];
    }
    case "delegate": {
      // Under its task call: the latest call of that id, as for decisions below.
      for (let at = list.length - 1; at >= 0; at--) {
        const item = list[at];
        if (item?.kind !== "tool" || item.id !== event.call) continue;
        const delegate = applyDelegate(item.delegate, event, callTitle);
        if (delegate === item.delegate) return items as TranscriptItem[];
        list[at] = { ...item, delegate };
        break;
      }
      return list;
    }
    case "decision": {
      // The person answered a call's approval: they saw it (an edit's diff too) in the dialog.
      const { seat, holder, subject } = event.decision;
      // A goal check: the person sees the turn go back to work, or why it ends.
      const goal = goalLine(event.decision);
      if (goal) list.push({ kind: "notice", text: goal });
      if (seat !== "call.approval" || holder !== "person" || !subject?.call) return list;
      // The latest call of that id: some providers reuse ids across steps.
      for (let at = list.length - 1; at >= 0; at--) {
        const item = list[at];
        if (item?.kind === "tool" && item.id === subject.call) {
          list[at] = { ...item, asked: true };
          break;
        }
      }
      return list;
    }
    case "error":
      list.push({ kind: "notice", text: `error: ${event.message}` });
      return list;
    default:
      return list;
  }
}

/** How far a call has come, in one short line: `42/100 · indexing`, `3 · working` without a total. */
export function progressText(update: { progress: number; total?: number; message?: string }): string {
  const count = update.total !== undefined ? `${update.progress}/${update.total}` : `${update.progress}`;
  return update.message ? `${count} · ${update.message}` : count;
}

// No Ink here: the interactive runner (src/cli) reads the past through this file before Ink has loaded.

/** Whether a text is a unified diff (an edit's or a write's), as the tools write them. */
export const isDiff = (text: string) => /^(--- |@@ )/.test(text);

/** The tool calls after the person's last message. */
export function lastTurnCalls(items: readonly TranscriptItem[]): Array<Extract<TranscriptItem, { kind: "tool" }>> {
  let start = items.length;
  while (start > 0 && items[start - 1]?.kind !== "user") start--;
  return items.slice(start).filter((item) => item.kind === "tool");
}

/**
 * A call as one line: the tool and its main argument (`shell npm test`, `read src/a.ts`, a task's
 * agent: `task build`), else its arguments.
 */
export function callTitle(name: string, input: unknown): string {
  const args = (input ?? {}) as Record<string, unknown>;
  const main = ["command", "path", "pattern", "name", "agent"]
    .map((key) => args[key])
    .find((v) => typeof v === "string");
  const text = typeof main === "string" ? `${name} ${main}` : `${name} ${JSON.stringify(input)}`;
  const line = text.split("\n")[0] ?? text;
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/**
 * What became of a call, without the call itself (the line names it already): `exit 0 (1.2s)`
 * of "shell `npm test` → exit 0 (1.2s)", `120 lines` of "read a.ts (120 lines)", `denied by the
 * user` of "edit: denied by the user", `done in 2 step(s)` of "task build: done in 2 step(s)".
 * The tools write their summaries in these shapes (src/tools/*.ts, the gate, the loop, the task
 * tool); anything else is kept whole, and a summary that only
 * repeats the call says nothing more.
 */
export function callOutcome(name: string, summary: string | undefined): string | undefined {
  if (!summary) return undefined;
  const line = summary.split("\n")[0] ?? summary;
  const arrow = line.lastIndexOf(" → ");
  if (arrow >= 0) return line.slice(arrow + 3) || undefined;
  if (line.startsWith(`${name}: `)) return line.slice(name.length + 2) || undefined;
  if (line.startsWith(`${name} `)) {
    // A task's `task build: done in 2 step(s)`: the tool, one word (its agent), then the outcome.
    const rest = line.slice(name.length + 1);
    const colon = rest.indexOf(": ");
    if (colon > 0 && !/\s/.test(rest.slice(0, colon))) return rest.slice(colon + 2) || undefined;
    const paren = /\(([^()]*)\)$/.exec(line);
    return paren ? paren[1] || undefined : undefined;
  }
  return line === name ? undefined : line;
}

/** Diff lines an edit allowed without asking shows in the transcript, before "… N more lines". */
export const FOLDED_DIFF_LINES = 6;

/**
 * The diff an edit allowed without asking shows folded under its line: nobody saw it in a
 * dialog, so the person sees at a glance what changed (Ctrl-O opens it whole). A call the person
 * approved showed its diff in the dialog already and is not repeated. The `---`/`+++` header is
 * left out: the line names the file.
 */
export function foldedDiff(
  item: Extract<TranscriptItem, { kind: "tool" }>,
): { lines: string[]; more: number } | undefined {
  if (item.status !== "done" || item.asked || !item.detail || !isDiff(item.detail)) return undefined;
  const body = item.detail.split("\n").filter((line) => !/^(--- |\+\+\+ )/.test(line));
  const lines = body.slice(0, FOLDED_DIFF_LINES);
  return { lines, more: body.length - lines.length };
}

/**
 * How many leading items of a running turn are final: the person's messages, notices, finished
 * calls (whose delegate, if any, ended too), and assistant text something came after. They can be
 * drawn once (Ink's Static), so a long turn does not redraw its whole past on every streamed word.
 */
export function finishedPrefix(items: readonly TranscriptItem[]): number {
  let count = 0;
  for (const [index, item] of items.entries()) {
    // A task call's line stays live while its delegate runs (a background one outlives its call).
    const final =
      item.kind === "tool"
        ? item.status !== "running" && !delegateLive(item.delegate)
        : item.kind === "assistant" || item.kind === "thinking"
          ? index < items.length - 1
          : true;
    if (!final) break;
    count++;
  }
  return count;
}
