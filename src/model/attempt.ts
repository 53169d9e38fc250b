import type { FinishReason, JSONValue, LanguageModel, ModelMessage, ToolSet } from "ai";
import type { ModelToolCall } from "../contracts/tool-calls.js";
import { type CacheKind, withCachePoints } from "./cache-plan.js";
import { type ClassifiedError, classifyError } from "./errors.js";
import { providerOptionsFor } from "./provider-options.js";
import type { SentReasoning } from "./reasoning.js";
import { fromSdkUsage, type Usage } from "./usage.js";

/** What the person sees as it arrives. */
export type ModelEvent =
  | { type: "text"; text: string }
  | { type: "tool_call"; call: ModelToolCall }
  /** A call the provider ran itself (its web search), for the record: bosun runs nothing for it. */
  | { type: "provider_call"; call: ModelToolCall }
  /** The model's thinking as it arrives (shown folded). */
  | { type: "reasoning"; text: string };

/**
 * A reasoning part the model returned, kept to be sent back: Anthropic's thinking needs its
 * signature (or is redacted data), OpenAI's reasoning item its id and encrypted content — all in
 * the provider's metadata, replayed as the part's provider options.
 */
export interface ReasoningPart {
  text: string;
  metadata?: Record<string, Record<string, JSONValue>>;
}

export interface AttemptInput {
  model: LanguageModel;
  system?: string;
  messages: ModelMessage[];
  tools?: ToolSet;
  maxOutputTokens?: number;
  signal?: AbortSignal;
  onEvent?: (event: ModelEvent) => void;
  /** How the provider caches the prompt (cache-plan.ts), and the key of the session's requests. */
  cache?: { kind?: CacheKind; key?: string };
  /** The reasoning options seat `model.options` settled for this model (reasoning.ts). */
  reasoning?: SentReasoning;
}

export type AttemptOutcome =
  | {
      status: "complete";
      text: string;
      reasoning: ReasoningPart[];
      toolCalls: ModelToolCall[];
      finishReason: FinishReason;
      usage: Usage;
    }
  | {
      status: "failed";
      error: ClassifiedError;
      text: string;
      reasoning: ReasoningPart[];
      toolCalls: ModelToolCall[];
      outputShown: boolean;
      usage?: Usage;
    };

/**
 * One streamed model response, no retries (the caller decides those). Errors come back as a
 * classified outcome with whatever was shown so far — never thrown — so the caller can tell a
 * failure before output from a stream broken after it.
 */
export async function streamAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const { streamText } = await import("ai");
  // The AI SDK prints its warnings with console.info/warn: on stdout they break `--format json`
  // and the TUI's drawing, and what they say (an unknown model's limits) bosun says itself.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  let text = "";
  const thinking = new Map<string, ReasoningPart>();
  const reasoning = () => [...thinking.values()];
  const toolCalls: ModelToolCall[] = [];
  let finishReason: FinishReason | undefined;
  let usage: Usage | undefined;
  let notAReply: string | undefined;
  const failed = (error: unknown): AttemptOutcome => ({
    status: "failed",
    error: input.signal?.aborted ? { ...classifyError(error), class: "aborted" } : classifyError(error),
    text,
    reasoning: reasoning(),
    toolCalls,
    outputShown: text.length > 0 || toolCalls.length > 0,
    ...(usage ? { usage } : {}),
  });
  try {
    const prompt = withCachePoints(input.cache?.kind, input.system, input.messages);
    // A thinking budget counts inside the output limit: reasoning.ts made room for it.
    const maxOutputTokens = input.reasoning?.maxOutputTokens ?? input.maxOutputTokens;
    const result = streamText({
      model: input.model,
      ...(prompt.system ? { system: prompt.system } : {}),
      ...sentUnchecked(prompt.messages),
      ...(input.tools ? { tools: input.tools } : {}),
      ...(maxOutputTokens ? { maxOutputTokens } : {}),
      ...(input.signal ? { abortSignal: input.signal } : {}),
      // bosun owns retries (seat model.retry), so the SDK must not retry behind its back.
      maxRetries: 0,
      providerOptions: providerOptionsFor({ cache: input.cache, reasoning: input.reasoning }),
      // Failures reach bosun as error parts and are classified there; the SDK must not dump them.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case "text-delta":
          text += part.text;
          input.onEvent?.({ type: "text", text: part.text });
          break;
        case "reasoning-start":
        case "reasoning-delta":
        case "reasoning-end":
          keepReasoning(thinking, part, input.onEvent);
          break;
        case "tool-call": {
          // One the provider ran itself (its web search): its result is in the text that follows, not bosun's to run.
          if ((part as { providerExecuted?: boolean }).providerExecuted) {
            input.onEvent?.({
              type: "provider_call",
              call: { id: part.toolCallId, name: part.toolName, input: part.input },
            });
            break;
          }
          const call: ModelToolCall = { id: part.toolCallId, name: part.toolName, input: part.input };
          const metadata = (part as { providerMetadata?: Metadata }).providerMetadata;
          if (metadata && Object.keys(metadata).length > 0) call.metadata = metadata;
          if ("invalid" in part && part.invalid) {
            call.invalid = true;
            call.error = String((part as { error?: unknown }).error ?? "invalid input");
          }
          toolCalls.push(call);
          input.onEvent?.({ type: "tool_call", call });
          break;
        }
        case "finish-step":
          usage = fromSdkUsage(part.usage);
          finishReason = part.finishReason;
          notAReply = notAModelReply(part, text.length > 0 || toolCalls.length > 0);
          break;
        case "error":
          return failed(part.error);
        case "abort":
          return failed(Object.assign(new Error("aborted"), { name: "AbortError" }));
        default:
          break;
      }
    }
  } catch (error) {
    return failed(error);
  }
  if (input.signal?.aborted) return failed(Object.assign(new Error("aborted"), { name: "AbortError" }));
  if (notAReply) return failed(new Error(notAReply));
  return {
    status: "complete",
    text,
    reasoning: reasoning(),
    toolCalls,
    finishReason: finishReason ?? "other",
    usage: usage ?? fromSdkUsage(undefined),
  };
}

/**
 * The messages, handed to the SDK past its prompt check: `streamText` validates `messages` against
 * its zod schema on every call, which costs more the longer the session (most of a step's time
 * by step 300). bosun built these messages itself (conversation.ts), so it sends a one-message
 * stand-in through the check and the real messages through `prepareStep`, which the SDK converts
 * for the provider exactly as it would `messages` but does not re-validate. An empty list goes
 * the checked way, so it fails as it always did.
 */
function sentUnchecked(messages: ModelMessage[]): {
  messages: ModelMessage[];
  prepareStep?: () => { messages: ModelMessage[] };
} {
  if (messages.length === 0) return { messages };
  return { messages: STAND_IN, prepareStep: () => ({ messages }) };
}

const STAND_IN: ModelMessage[] = [{ role: "user", content: "." }];

/**
 * A 200 whose body was not the protocol: some SDK parsers (OpenAI Responses) skip what they cannot
 * read and finish "other" with nothing — no text, no call, no usage — where a real reply, even an
 * empty one, reports its tokens. That is a failed request (a proxy's HTML page, a wrong endpoint),
 * not a model that chose to say nothing; the content type says which it was.
 */
export function notAModelReply(
  step: {
    finishReason: string;
    usage?: { inputTokens?: number; outputTokens?: number };
    response?: { headers?: Record<string, string> };
  },
  produced: boolean,
): string | undefined {
  if (produced || step.finishReason !== "other") return undefined;
  if (step.usage?.inputTokens !== undefined || step.usage?.outputTokens !== undefined) return undefined;
  const type = step.response?.headers?.["content-type"];
  return `the provider answered without a model reply${type ? ` (content-type ${type.split(";")[0]})` : ""}`;
}

type Metadata = Record<string, Record<string, JSONValue>>;

/** Gathers one reasoning part's text and metadata (a signature arrives on a delta, encrypted content at the end). */
function keepReasoning(
  parts: Map<string, ReasoningPart>,
  part: { type: string; id: string; text?: string; providerMetadata?: unknown },
  onEvent: AttemptInput["onEvent"],
): void {
  const kept = parts.get(part.id) ?? { text: "" };
  parts.set(part.id, kept);
  if (part.type === "reasoning-delta" && part.text) {
    kept.text += part.text;
    onEvent?.({ type: "reasoning", text: part.text });
  }
  const metadata = part.providerMetadata as Metadata | undefined;
  if (!metadata) return;
  const merged: Metadata = { ...kept.metadata };
  for (const [provider, values] of Object.entries(metadata)) merged[provider] = { ...merged[provider], ...values };
  kept.metadata = merged;
}
