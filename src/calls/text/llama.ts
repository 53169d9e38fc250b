import { readEnvelope } from "./envelope.js";
import { callsOfJson, type FoundCall } from "./found.js";

/**
 * Llama 3.x: `<|python_tag|>{"name": .., "parameters": {..}}` (ended by `<|eom_id|>`/`<|eot_id|>`
 * or the answer), or the same object alone with "parameters" — the JSON-based tool calling of its
 * model card. Its built-in `brave_search.call(query=..)` form is not a JSON call and is left as text.
 */
export function llamaCalls(text: string): FoundCall[] {
  const at = text.indexOf("<|python_tag|>");
  if (at >= 0) {
    const body = text.slice(at + "<|python_tag|>".length);
    const stop = /<\|(?:eom_id|eot_id)\|>/.exec(body);
    const json = stop ? body.slice(0, stop.index) : body;
    const end = at + "<|python_tag|>".length + json.length + (stop ? stop[0].length : 0);
    // Several calls may follow one tag, separated by ";" (its prompt format's parallel calls).
    return json.split(/;\s*(?=\{)/).flatMap((part) => callsOfJson("llama", part, at, end, readEnvelope));
  }
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") || !/^\{\s*"(?:type"\s*:\s*"function"\s*,\s*")?name"/.test(trimmed)) return [];
  if (!/"parameters"\s*:/.test(trimmed)) return [];
  const start = text.indexOf(trimmed);
  return callsOfJson("llama", trimmed, start, start + trimmed.length, readEnvelope);
}
