import { readEnvelope } from "./envelope.js";
import { callsOfJson, type FoundCall } from "./found.js";

/**
 * Hermes and Qwen: `<tool_call>{"name": .., "arguments": {..}}</tool_call>`, one tag a call.
 * A last tag left open (the answer was cut off) runs to the end of the text.
 */
export function hermesCalls(text: string): FoundCall[] {
  const found: FoundCall[] = [];
  const tag = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;
  for (const match of text.matchAll(tag)) {
    const start = match.index;
    found.push(...callsOfJson("hermes", match[1] ?? "", start, start + match[0].length, readEnvelope));
    if (match[0].length === 0) break;
  }
  return found;
}
