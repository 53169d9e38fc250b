/** Up to this much of unreadable arguments is quoted back to the model. */
export const RAW_QUOTE_LIMIT = 2048;

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string; quote: string };

/**
 * Seat `call.parse`: the arguments as the provider delivered them. An object is already parsed;
 * a string is what the SDK could not read as JSON — tried once more here, else quoted back.
 */
export function parseArguments(input: unknown): Parsed {
  if (typeof input !== "string") return { ok: true, value: input ?? {} };
  try {
    return { ok: true, value: JSON.parse(input) };
  } catch (error) {
    const quote =
      input.length > RAW_QUOTE_LIMIT ? `${head(input, RAW_QUOTE_LIMIT)}… (${input.length} characters in all)` : input;
    return { ok: false, error: (error as Error).message, quote };
  }
}

/** The first `limit` UTF-16 units, one fewer rather than half a surrogate pair (a lone surrogate breaks provider JSON). */
function head(text: string, limit: number): string {
  const last = text.charCodeAt(limit - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit);
}
