import type { JSONValue, ModelMessage, UserContent } from "ai";

type ProviderOptions = Record<string, Record<string, JSONValue>>;

import type { StoredEvent } from "../store/session-store.js";
import { isPlainObject } from "../util/object.js";
import { type CallFinished, EV, type UserMessage } from "./events.js";
import { isEvent } from "./journal.js";

type Outcome = { output: string; isError: boolean; images?: CallFinished["images"] };

const INTERRUPTED =
  "Interrupted: bosun stopped before this call finished. It was not run again; check its effects before repeating it.";
const CANCELLED = "Cancelled by the user before it finished.";
const MISSING = "No result was recorded for this call.";

/**
 * The conversation the model sees, projected from the session's events: user messages,
 * assistant messages with their tool calls, and one result for every call — finished,
 * refused, interrupted by a crash or cancelled. A call with no recorded outcome still gets a
 * result, so the conversation is always one a provider accepts.
 *
 * An outcome belongs to the latest earlier assistant message that has a call with its id and no
 * outcome yet: some providers reuse call ids across responses, and an id alone must not give
 * one step's call another step's result.
 */
export function projectConversation(events: readonly StoredEvent[]): ModelMessage[] {
  const outcomes = new Map<StoredEvent, Map<string, Outcome>>();
  const open = new Map<string, Array<Map<string, Outcome>>>();
  for (const event of events) {
    if (isEvent(event, EV.assistant)) {
      const mine = new Map<string, Outcome>();
      outcomes.set(event, mine);
      for (const call of event.data.toolCalls) {
        open.set(call.id, [...(open.get(call.id) ?? []), mine]);
      }
      continue;
    }
    const outcome = outcomeOf(event);
    if (!outcome) continue;
    const waiting = open.get(outcome.id);
    const owner = waiting?.pop();
    owner?.set(outcome.id, outcome);
  }

  const messages: ModelMessage[] = [];
  for (const event of events) {
    if (isEvent(event, EV.user)) {
      messages.push({ role: "user", content: userContent(event.data) });
    } else if (isEvent(event, EV.notice)) {
      const notice = event.data;
      const last = messages.at(-1);
      // Context bosun adds between steps (the environment changed, a subfolder's AGENTS.md) rides
      // on the results it follows, so the conversation keeps its shape: results, then the model.
      if (notice.kind && last?.role === "tool") appendToLastResult(last, `[bosun] ${notice.text}`);
      else messages.push({ role: "user", content: `[bosun] ${notice.text}` });
    } else if (isEvent(event, EV.assistant)) {
      const data = event.data;
      if (data.text === "" && data.toolCalls.length === 0) continue;
      messages.push({
        role: "assistant",
        content: [
          // First, as the model gave them: Anthropic refuses a tool use after thinking without the
          // thinking's signed block; OpenAI (store:false) needs its encrypted reasoning item back.
          ...(data.reasoning ?? []).map((part) => ({
            type: "reasoning" as const,
            text: part.text,
            ...(part.metadata ? { providerOptions: part.metadata as ProviderOptions } : {}),
          })),
          ...(data.text ? [{ type: "text" as const, text: data.text }] : []),
          ...data.toolCalls.map((call) => ({
            type: "tool-call" as const,
            toolCallId: call.id,
            toolName: replayName(call.name),
            // A call whose arguments were unreadable is replayed with none; its result quotes them.
            input: isPlainObject(call.input) ? call.input : {},
            ...(call.metadata ? { providerOptions: call.metadata as ProviderOptions } : {}),
          })),
        ],
      });
      if (data.toolCalls.length > 0) {
        const mine = outcomes.get(event);
        messages.push({
          role: "tool",
          content: data.toolCalls.map((call) => {
            const outcome = mine?.get(call.id) ?? { output: MISSING, isError: true };
            return {
              type: "tool-result" as const,
              toolCallId: call.id,
              toolName: replayName(call.name),
              output: outcome.isError
                ? { type: "error-text" as const, value: outcome.output }
                : { type: "text" as const, value: outcome.output },
            };
          }),
        });
        // Tool results carry text only on most providers: a call's images follow as a user message.
        const images = data.toolCalls.flatMap((call) =>
          (mine?.get(call.id)?.images ?? []).flatMap((image) => [
            { type: "text" as const, text: `[bosun] Image ${image.path} from call ${call.id}:` },
            { type: "image" as const, image: image.data, mediaType: image.mediaType },
          ]),
        );
        if (images.length > 0) messages.push({ role: "user", content: images });
      }
    }
  }
  return messages;
}

function appendToLastResult(message: Extract<ModelMessage, { role: "tool" }>, text: string): void {
  const part = message.content.at(-1);
  if (part?.type !== "tool-result") return;
  const output = part.output;
  if (output.type === "text" || output.type === "error-text") output.value = `${output.value}\n\n${text}`;
}

function outcomeOf(event: StoredEvent): (Outcome & { id: string }) | undefined {
  if (isEvent(event, EV.callFinished)) {
    const data = event.data;
    return { id: data.id, output: data.output, isError: data.isError, ...(data.images ? { images: data.images } : {}) };
  }
  if (isEvent(event, EV.callInterrupted)) return { id: event.data.id, output: INTERRUPTED, isError: true };
  if (isEvent(event, EV.callCancelled)) return { id: event.data.id, output: CANCELLED, isError: true };
  return undefined;
}

/** Tool-call input must be a JSON object for every provider; anything else is replayed as none. */

function userContent(message: UserMessage): UserContent {
  const files = message.files ?? [];
  const text = [
    message.text,
    ...files.filter((f) => !f.image).map((f) => `<file path="${f.path}">\n${f.content}\n</file>`),
  ]
    .filter(Boolean)
    .join("\n\n");
  const images = files.filter((f) => f.image);
  if (images.length === 0) return text;
  return [
    { type: "text", text },
    ...images.flatMap((f) => [
      { type: "text" as const, text: `Image ${f.path}:` },
      { type: "image" as const, image: f.image?.data ?? "", mediaType: f.image?.mediaType ?? "image/png" },
    ]),
  ];
}

/**
 * A tool name as it can be sent back: providers accept only letters, digits, `_` and `-`
 * (OpenAI) in names, and a model may have written `functions.read`. The call's result says
 * what happened; the name only has to be one the provider takes.
 */
export function replayName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  return safe === "" ? "unknown_tool" : safe;
}
