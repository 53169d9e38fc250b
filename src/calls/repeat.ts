import type { Answer } from "../contracts/decisions.js";

/**
 * Seat `call.repeat`: the same tool with the same arguments `limit` times in a row means the
 * model is stuck; the turn stops with a clear message instead of burning steps.
 */
export function decideRepeat(input: { recent: readonly string[]; limit: number }): Answer<"stop"> | undefined {
  const { recent, limit } = input;
  if (recent.length < limit) return undefined;
  const tail = recent.slice(-limit);
  if (!tail.every((signature) => signature === tail[0])) return undefined;
  return {
    holder: "code",
    answer: "stop",
    reasons: [
      { rule: "same call repeated", detail: `${tail[0]} ${limit} times in a row (repeat_limit)`, decisive: true },
    ],
  };
}

/** Stable text for "same tool, same arguments": keys sorted so order does not matter. */
export function callSignature(name: string, input: unknown): string {
  return `${name} ${stableJson(input)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
