import type { JSONValue } from "ai";
import { type CacheKind, cacheOptions } from "./cache-plan.js";
import type { SentReasoning } from "./reasoning.js";

type ProviderOptions = Record<string, Record<string, JSONValue>>;

/**
 * The one place a request's provider options are put together: the conversation lives in
 * bosun's session store, so it is never also kept at OpenAI (store:false, which is also why
 * reasoning comes back encrypted to be replayed); the prompt cache's key (cache-plan.ts); and
 * the reasoning seat `model.options` settled (reasoning.ts). Pure.
 */
export function providerOptionsFor(input: {
  cache?: { kind?: CacheKind | undefined; key?: string | undefined } | undefined;
  reasoning?: SentReasoning | undefined;
}): ProviderOptions {
  let merged: ProviderOptions = { openai: { store: false } };
  merged = mergeOptions(merged, cacheOptions(input.cache?.kind, input.cache?.key));
  if (input.reasoning) merged = mergeOptions(merged, input.reasoning.options as ProviderOptions);
  return merged;
}

function mergeOptions(base: ProviderOptions, extra: ProviderOptions): ProviderOptions {
  const merged: ProviderOptions = { ...base };
  for (const [provider, options] of Object.entries(extra)) merged[provider] = { ...merged[provider], ...options };
  return merged;
}
