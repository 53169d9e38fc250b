import { readEnvelope } from "./envelope.js";
import { callsOfJson, type FoundCall } from "./found.js";

/** The whole answer is one JSON object naming a tool (or a list of them), with nothing around it. */
export function bareCalls(text: string): FoundCall[] {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return [];
  const start = text.indexOf(trimmed);
  return callsOfJson("bare-json", trimmed, start, start + trimmed.length, readEnvelope);
}
