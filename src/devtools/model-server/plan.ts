import type { NormalizedRequest, Protocol } from "./normalize.js";
import type { Reply } from "./script.js";

/**
 * A scripted reply with every default filled in, ready for a protocol encoder: ids, finish
 * reason, tool-call argument text and usage.
 */

export type Finish = "stop" | "length" | "tool_calls";

export interface PlannedToolCall {
  /** The call id the client sees (`call_…`, `toolu_…`, or the scripted one). */
  id: string;
  /** Responses API output item id (`fc_…`). */
  itemId: string;
  name: string;
  /** The argument text sent on the wire: JSON for an object, the raw string otherwise. */
  arguments: string;
}

export interface PlannedUsage {
  /** Total input tokens, cached ones included. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The part of `output` spent reasoning. */
  reasoning: number;
}

export interface PlannedReply {
  /** Response id in the protocol's style. */
  id: string;
  /** Responses API message item id; Anthropic content is addressed by index. */
  messageId: string;
  model: string;
  /** Unix seconds. */
  created: number;
  text: string;
  toolCalls: PlannedToolCall[];
  /** Searches the provider ran itself (Anthropic's server tools), shown before the text. */
  providerSearches: { id: string; query: string; results: { url: string; title: string }[] }[];
  /** The model's thinking, before the text (script `thinking`, every default filled in). */
  thinking: PlannedThinking[];
  finish: Finish;
  usage: PlannedUsage;
}

export interface PlannedThinking {
  /** OpenAI Responses reasoning item id (`rs_…`). */
  itemId: string;
  text: string;
  signature: string;
  redacted?: string;
  encrypted: string;
}

const ID_PREFIX: Record<Protocol, { response: string; call: string }> = {
  "openai-chat": { response: "chatcmpl-scripted", call: "call" },
  anthropic: { response: "msg_scripted", call: "toolu" },
  "openai-responses": { response: "resp_scripted", call: "call" },
};

/** Rough token count: a token is about four characters, and never zero. */
export function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

export function planReply(
  reply: Reply,
  request: NormalizedRequest,
  number: number,
  rawBodyLength: number,
): PlannedReply {
  const prefix = ID_PREFIX[request.protocol];
  const text = reply.text ?? "";
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `${prefix.call}_${number}_${index}`,
    itemId: `fc_scripted_${number}_${index}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
  const cacheRead = reply.usage?.cacheRead ?? 0;
  const cacheWrite = reply.usage?.cacheWrite ?? 0;
  const outputChars = text.length + toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  return {
    id: `${prefix.response}_${number}`,
    messageId: `msg_scripted_${number}`,
    model: request.model || "scripted-model",
    created: Math.floor(Date.now() / 1000),
    text,
    toolCalls,
    providerSearches: (reply.providerSearches ?? []).map((search, index) => ({
      id: `srvtoolu_scripted_${number}_${index}`,
      query: search.query,
      results: search.results ?? [],
    })),
    thinking: (reply.thinking ?? []).map((step, index) => ({
      itemId: `rs_scripted_${number}_${index}`,
      text: step.text ?? "",
      signature: step.signature ?? `sig_scripted_${number}_${index}`,
      ...(step.redacted ? { redacted: step.redacted } : {}),
      encrypted: step.encrypted ?? `enc_scripted_${number}_${index}`,
    })),
    finish: reply.finish ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    usage: {
      input: reply.usage?.input ?? Math.max(estimateTokens(rawBodyLength), cacheRead + cacheWrite),
      output: reply.usage?.output ?? estimateTokens(outputChars),
      cacheRead,
      cacheWrite,
      reasoning: reply.reasoningTokens ?? 0,
    },
  };
}

/** Splits text into word-sized stream pieces (each word keeps its trailing whitespace). */
export function textPieces(text: string): string[] {
  if (text === "") return [];
  return text.match(/\s*\S+\s*|\s+/g) ?? [text];
}

/** Splits tool-call arguments into a few pieces, as a model streams them. */
export function argumentPieces(args: string, count = 3): string[] {
  if (args === "") return [];
  const size = Math.max(1, Math.ceil(args.length / count));
  const pieces: string[] = [];
  for (let at = 0; at < args.length; at += size) pieces.push(args.slice(at, at + size));
  return pieces;
}

/** One server-sent event frame. */
export function sse(data: unknown, event?: string): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`;
}

/** What each protocol provides to the server: its reply bodies, its event streams, its error bodies. */
export interface Encoder {
  /** The non-streaming response body. */
  json(plan: PlannedReply, body: Record<string, unknown>): unknown;
  /** The streaming response, as SSE frames in order. */
  events(plan: PlannedReply, body: Record<string, unknown>): string[];
  /** A realistic error body for an HTTP status; `message` replaces the stock message. */
  errorBody(status: number, message?: string): unknown;
}
