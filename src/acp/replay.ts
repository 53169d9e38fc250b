import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { proseOf } from "../calls/text/prose.js";
import { CHECKPOINT_EVENT } from "../compaction/checkpoint.js";
import { EV } from "../session/events.js";
import type { JournalEvent } from "../session/journal.js";
import { planOf } from "./plan.js";
import { type ToolCallView, textContent, toolCallView, toolResultUpdate } from "./tool-call.js";

/** The event types a loaded session's history is replayed from (never decisions, usage or file records). */
export const REPLAY_TYPES = [
  EV.user,
  EV.assistant,
  EV.callFinished,
  EV.callInterrupted,
  EV.callCancelled,
  CHECKPOINT_EVENT,
] as const;

/**
 * A session's history as the editor's thread (session/load): the person's messages, the
 * assistant's thinking and text, each call with its end, the plans the todo tool took. A call's input is
 * as the model wrote it, so a write's diff has no "before" (the file has moved on since). The
 * person's own `!cmd` runs (step 0) are not the conversation's turns: left out.
 */
export function replayUpdates(events: readonly JournalEvent[], cwd: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const calls = new Map<string, { name: string; input: unknown; view: ToolCallView }>();
  for (const event of events) {
    switch (event.type) {
      case EV.user:
        updates.push({ sessionUpdate: "user_message_chunk", content: { type: "text", text: event.data.text } });
        break;
      case EV.assistant: {
        // The thinking first, as it streamed; only its text (never the provider's signatures).
        for (const part of event.data.reasoning ?? []) {
          if (part.text)
            updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: part.text } });
        }
        // Calls the model wrote in its text are shown as the calls below, not as its words.
        const text = proseOf(event.data.text, event.data.toolCalls);
        if (text) updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
        for (const call of event.data.toolCalls) {
          const view = toolCallView(call.name, call.input, cwd);
          calls.set(call.id, { name: call.name, input: call.input, view });
          updates.push({ sessionUpdate: "tool_call", toolCallId: call.id, status: "pending", ...view });
        }
        break;
      }
      case EV.callFinished: {
        const call = calls.get(event.data.id);
        if (!call) break;
        calls.delete(event.data.id);
        updates.push({ sessionUpdate: "tool_call_update", ...toolResultUpdate(event.data.id, event.data, call.view) });
        const plan = call.name === "todo" && !event.data.isError ? planOf(call.input) : undefined;
        if (plan) updates.push({ sessionUpdate: "plan", entries: plan });
        break;
      }
      case EV.callInterrupted:
      case EV.callCancelled: {
        if (!calls.delete(event.data.id)) break;
        const why = event.type === EV.callCancelled ? "cancelled" : "interrupted (bosun stopped while it ran)";
        updates.push({
          sessionUpdate: "tool_call_update",
          toolCallId: event.data.id,
          status: "failed",
          content: [textContent(why)],
        });
        break;
      }
      case CHECKPOINT_EVENT:
        updates.push({
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: "\n— earlier conversation summarised —\n" },
        });
        break;
    }
  }
  return updates;
}
