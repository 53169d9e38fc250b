import { balancedEnd, readEnvelope } from "./envelope.js";
import { callsOfJson, type FoundCall } from "./found.js";

/** Mistral: `[TOOL_CALLS][{"name": .., "arguments": {..}}, ..]` (or one object), after any text. */
export function mistralCalls(text: string): FoundCall[] {
  const at = text.indexOf("[TOOL_CALLS]");
  if (at < 0) return [];
  const bodyStart = at + "[TOOL_CALLS]".length;
  const body = text.slice(bodyStart).trimStart();
  const offset = text.length - body.length;
  const end = balancedEnd(body);
  const json = end === undefined ? body : body.slice(0, end);
  const calls = callsOfJson("mistral", json, at, offset + json.length, readEnvelope);
  return calls;
}
