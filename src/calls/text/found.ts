import type { Envelope } from "./envelope.js";

/** The closed set of ways a model writes tool calls as text (classify.ts tries them in order). */
export type TextFormat = "mistral" | "hermes" | "llama" | "fenced-json" | "bare-json";

/** One call found in an answer's text: how it was written, where, and what was read of it. */
export interface FoundCall {
  format: TextFormat;
  /** The span of the answer's text it was read from, [start, end). */
  start: number;
  end: number;
  envelope: Envelope;
}

/** A span of text holding a JSON object or an array of them, read into calls. */
export function callsOfJson(
  format: TextFormat,
  json: string,
  start: number,
  end: number,
  read: (text: string) => Envelope | undefined,
): FoundCall[] {
  const trimmed = json.trim();
  if (trimmed.startsWith("[")) {
    try {
      const list = JSON.parse(trimmed) as unknown;
      if (Array.isArray(list)) {
        return list.flatMap((item) => {
          const envelope = read(JSON.stringify(item));
          return envelope ? [{ format, start, end, envelope }] : [];
        });
      }
    } catch {
      // A broken list: read as one call from its first object, so the model hears what broke.
      const first = trimmed.slice(1).trimStart();
      const envelope = read(first.replace(/\]\s*$/, ""));
      return envelope ? [{ format, start, end, envelope }] : [];
    }
  }
  const envelope = read(trimmed);
  return envelope ? [{ format, start, end, envelope }] : [];
}
