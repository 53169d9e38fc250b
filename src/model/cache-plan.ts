import type { ModelMessage } from "ai";

/** How a provider caches a prompt's prefix: Anthropic by marked breakpoints, OpenAI by a stable prefix and a key. */
export type CacheKind = "anthropic" | "openai";

/** Anthropic allows 4 breakpoints a request; bosun uses 3 (the system prompt, and the newest two messages). */
export const ANTHROPIC_BREAKPOINTS = 3;

const EPHEMERAL = { anthropic: { cacheControl: { type: "ephemeral" } } } as const;

export function cacheKindOf(provider: { type?: string | undefined }): CacheKind | undefined {
  if (provider.type === "anthropic") return "anthropic";
  if (provider.type === "openai") return "openai";
  return undefined;
}

/**
 * The prompt with the provider's cache marks. Anthropic caches the prefix up to each breakpoint:
 * one after the system prompt (the tools come before it, so they are cached with it), one on the
 * newest message (this request writes the whole prefix), and one on the message before it (the
 * prefix the previous request wrote, read back even when a step added many blocks). OpenAI and
 * the rest cache a stable prefix on their own: nothing is marked, the order is already stable.
 * Pure: the messages given are not changed.
 */
export function withCachePoints(
  kind: CacheKind | undefined,
  system: string | undefined,
  messages: readonly ModelMessage[],
): { system?: string; messages: ModelMessage[] } {
  if (kind !== "anthropic") return { ...(system ? { system } : {}), messages: [...messages] };
  const marked = messages.map((message, index) =>
    index >= messages.length - (ANTHROPIC_BREAKPOINTS - 1) ? mark(message) : message,
  );
  return { messages: system ? [mark({ role: "system", content: system }), ...marked] : marked };
}

/** Provider options that go with every request of a session: OpenAI's cache key routes its requests to one cache. */
export function cacheOptions(
  kind: CacheKind | undefined,
  key: string | undefined,
): Record<string, Record<string, string>> {
  if (kind === "openai" && key) return { openai: { promptCacheKey: `bosun-${key}` } };
  return {};
}

function mark(message: ModelMessage): ModelMessage {
  const own = (message as { providerOptions?: Record<string, Record<string, unknown>> }).providerOptions ?? {};
  return {
    ...message,
    providerOptions: { ...own, anthropic: { ...own.anthropic, ...EPHEMERAL.anthropic } },
  } as ModelMessage;
}
