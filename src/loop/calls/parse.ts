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
      input.length > RAW_QUOTE_LIMIT
        ? `${input.slice(0, RAW_QUOTE_LIMIT)}… (${input.length} characters in all)`
        : input;
    return { ok: false, error: (error as Error).message, quote };
  }
}
