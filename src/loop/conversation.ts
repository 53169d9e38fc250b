import type { ModelMessage } from "ai";
import type { StoredEvent } from "../store/session-store.js";
import { type AssistantMessage, type CallFinished, EV, type UserMessage } from "./events.js";

/**
 * The conversation the model sees, projected from the session's events: user messages,
 * assistant messages with their tool calls, and one result for every call — finished,
 * refused, interrupted by a crash or cancelled. A call with no recorded outcome still gets a
 * result, so the conversation is always one a provider accepts.
 */
export function projectConversation(events: readonly StoredEvent[]): ModelMessage[] {
  const outcomes = new Map<string, { output: string; isError: boolean }>();
  for (const event of events) {
    if (event.type === EV.callFinished) {
      const data = event.data as CallFinished;
      outcomes.set(data.id, { output: data.output, isError: data.isError });
    } else if (event.type === EV.callInterrupted) {
      const data = event.data as { id: string };
      outcomes.set(data.id, {
        output:
          "Interrupted: bosun stopped before this call finished. It was not run again; check its effects before repeating it.",
        isError: true,
      });
    } else if (event.type === EV.callCancelled) {
      const data = event.data as { id: string };
      outcomes.set(data.id, { output: "Cancelled by the user before it finished.", isError: true });
    }
  }

  const messages: ModelMessage[] = [];
  for (const event of events) {
    if (event.type === EV.user) {
      messages.push({ role: "user", content: userText(event.data as UserMessage) });
    } else if (event.type === EV.notice) {
      messages.push({ role: "user", content: `[bosun] ${(event.data as { text: string }).text}` });
    } else if (event.type === EV.assistant) {
      const data = event.data as AssistantMessage;
      if (data.text === "" && data.toolCalls.length === 0) continue;
      messages.push({
        role: "assistant",
        content: [
          ...(data.text ? [{ type: "text" as const, text: data.text }] : []),
          ...data.toolCalls.map((call) => ({
            type: "tool-call" as const,
            toolCallId: call.id,
            toolName: call.name,
            // A call whose arguments were unreadable is replayed with none; its result quotes them.
            input: call.input && typeof call.input === "object" ? call.input : {},
          })),
        ],
      });
      if (data.toolCalls.length > 0) {
        messages.push({
          role: "tool",
          content: data.toolCalls.map((call) => {
            const outcome = outcomes.get(call.id) ?? { output: "No result was recorded for this call.", isError: true };
            return {
              type: "tool-result" as const,
              toolCallId: call.id,
              toolName: call.name,
              output: outcome.isError
                ? { type: "error-text" as const, value: outcome.output }
                : { type: "text" as const, value: outcome.output },
            };
          }),
        });
      }
    }
  }
  return messages;
}

function userText(message: UserMessage): string {
  const files = (message.files ?? []).map((f) => `<file path="${f.path}">\n${f.content}\n</file>`);
  return [message.text, ...files].filter(Boolean).join("\n\n");
}
