import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { RunEvent } from "../loop/turn.js";
import { planOf } from "./plan.js";
import { type ToolCallView, textContent, toolCallView, toolResultUpdate } from "./tool-call.js";

/** What a turn's events become for the editor, call by call: it remembers each call's view for its end. */
export interface TurnUpdates {
  /** The session updates of one run event (none for what the editor does not show: decisions, usage, waits). */
  of(event: RunEvent): SessionUpdate[];
}

/**
 * The updates of one turn. `before` reads a file a write would replace (null: none), so its
 * diff shows the whole change; the caller owns the disk. Decisions are the ledger's (`bosun
 * why`), not the editor's thread: only the person's allowing a call shows, as the call running.
 */
export function turnUpdates(cwd: string, before: (path: string) => string | null | undefined): TurnUpdates {
  const calls = new Map<string, { name: string; input: unknown; view: ToolCallView }>();
  return {
    of(event) {
      switch (event.type) {
        case "text":
          return event.text
            ? [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } }]
            : [];
        case "reasoning":
          // The model's thinking as it streams: the editor shows it apart from the answer, folded.
          return event.text
            ? [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.text } }]
            : [];
        case "tool_call": {
          const path = (event.input as { path?: unknown } | undefined)?.path;
          const old = event.name === "write" && typeof path === "string" ? before(path) : undefined;
          const view = toolCallView(event.name, event.input, cwd, old);
          calls.set(event.id, { name: event.name, input: event.input, view });
          return [{ sessionUpdate: "tool_call", toolCallId: event.id, status: "pending", ...view }];
        }
        case "tool_result": {
          const call = calls.get(event.id);
          const updates: SessionUpdate[] = [
            { sessionUpdate: "tool_call_update", ...toolResultUpdate(event.id, event, call?.view) },
          ];
          // The plan is what the todo tool took: a refused or failed call changed nothing.
          const plan = event.name === "todo" && !event.isError ? planOf(call?.input) : undefined;
          if (plan) updates.push({ sessionUpdate: "plan", entries: plan });
          return updates;
        }
        case "decision": {
          // The person allowed it in the editor: it runs now.
          const { seat, answer, subject } = event.decision;
          if (seat !== "call.approval" || !subject?.call || !calls.has(subject.call)) return [];
          if (answer !== "allow-once" && answer !== "allow-always") return [];
          return [{ sessionUpdate: "tool_call_update", toolCallId: subject.call, status: "in_progress" }];
        }
        case "delegate": {
          // A delegate's own events are its session's (bosun why --tree); the editor sees where it stands.
          if (event.state === "event" || !calls.has(event.call)) return [];
          const what = `${event.agent}${event.description ? ` (${event.description})` : ""}: ${event.state}`;
          return [
            {
              sessionUpdate: "tool_call_update",
              toolCallId: event.call,
              ...(event.state === "running" ? { status: "in_progress" as const } : {}),
              content: [textContent(what)],
            },
          ];
        }
        case "error":
          return [
            { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n\nerror: ${event.message}\n` } },
          ];
        default:
          return [];
      }
    },
  };
}
