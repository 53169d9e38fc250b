import type { LanguageModelUsage } from "ai";
import type { ModelInfo } from "./catalog.js";

/** Tokens of one model request, as the provider reported them. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The part of `output` the model spent reasoning, when the provider says (set only when some). */
  reasoning?: number;
}

export const ZERO_USAGE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

export function fromSdkUsage(usage: LanguageModelUsage | undefined): Usage {
  const reasoning = usage?.outputTokenDetails?.reasoningTokens ?? usage?.reasoningTokens ?? 0;
  return {
    input: usage?.inputTokens ?? 0,
    output: usage?.outputTokens ?? 0,
    cacheRead: usage?.inputTokenDetails?.cacheReadTokens ?? 0,
    cacheWrite: usage?.inputTokenDetails?.cacheWriteTokens ?? 0,
    ...(reasoning > 0 ? { reasoning } : {}),
  };
}

export function addUsage(a: Usage, b: Usage): Usage {
  const reasoning = (a.reasoning ?? 0) + (b.reasoning ?? 0);
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    ...(reasoning > 0 ? { reasoning } : {}),
  };
}

/**
 * Cost in US dollars, or undefined when the model's prices are unknown. Cached tokens are
 * priced at their own rate where one is known; input tokens here include cached ones, as the
 * AI SDK reports them, so the cached part is taken out of the plain input price.
 */
export function costOf(usage: Usage, info: ModelInfo | undefined): number | undefined {
  const price = info?.price;
  if (!price) return undefined;
  const cached = usage.cacheRead + usage.cacheWrite;
  const plainInput = Math.max(0, usage.input - cached);
  const perToken = (perMillion: number) => perMillion / 1_000_000;
  return (
    plainInput * perToken(price.input) +
    usage.output * perToken(price.output) +
    usage.cacheRead * perToken(price.cacheRead ?? price.input) +
    usage.cacheWrite * perToken(price.cacheWrite ?? price.input)
  );
}
