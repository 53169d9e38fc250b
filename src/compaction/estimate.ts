import type { ModelMessage } from "ai";

/** About four characters a token: a rough, provider-neutral estimate (never billed, only compared). */
export const CHARS_PER_TOKEN = 4;

/** Estimated tokens of a text: its length / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** What an image costs, roughly (providers charge by its size; ~1000–1600 tokens for a screenshot). */
export const IMAGE_TOKENS = 1_600;

/**
 * Estimated tokens of a conversation: the characters of every part's text, tool input and
 * output, plus IMAGE_TOKENS for each image or file part.
 */
export function estimateMessages(messages: readonly ModelMessage[]): number {
  let media = 0;
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const part of message.content) if (part.type === "image" || part.type === "file") media++;
  }
  return estimateTokens(messages.map(messageText).join("")) + media * IMAGE_TOKENS;
}

/** The characters of one message the estimate counts (roles and framing are left out). */
export function messageText(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => partText(part as { type: string } & Record<string, unknown>)).join("");
}

/** The text of one content part: text, reasoning, a tool call's name and input, a tool result's output. */
export function partText(part: { type: string } & Record<string, unknown>): string {
  switch (part.type) {
    case "text":
    case "reasoning":
      return String(part.text ?? "");
    case "tool-call":
      return `${String(part.toolName ?? "")}${JSON.stringify(part.input ?? {})}`;
    case "tool-result":
      return outputText(part.output);
    default:
      return "";
  }
}

/** The text of a tool result's output, whatever its kind. */
export function outputText(output: unknown): string {
  if (typeof output !== "object" || output === null) return "";
  const { type, value, reason } = output as { type?: string; value?: unknown; reason?: string };
  if (type === "text" || type === "error-text") return typeof value === "string" ? value : "";
  if (type === "json" || type === "error-json") return JSON.stringify(value ?? null);
  if (type === "execution-denied") return reason ?? "";
  if (type === "content" && Array.isArray(value)) {
    return value.map((item) => (typeof item?.text === "string" ? item.text : "")).join("");
  }
  return "";
}
