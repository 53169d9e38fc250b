import { readEnvelope } from "./envelope.js";
import { callsOfJson, type FoundCall } from "./found.js";

/**
 * A JSON call in a Markdown fence: ```json (or ```tool_call, or a bare ```) holding
 * `{"name": .., "arguments": ..}` or `{"tool": .., "input": ..}`, or a list of them. A fence
 * whose object names no tool is example JSON, not a call. A last fence left open runs to the end.
 */
export function fencedCalls(text: string): FoundCall[] {
  const found: FoundCall[] = [];
  const fence = /```(?:json|tool_call|tool|javascript)?[ \t]*\n([\s\S]*?)(?:\n?```|$)/g;
  for (const match of text.matchAll(fence)) {
    const body = match[1] ?? "";
    if (!/^\s*[[{]/.test(body)) continue;
    const start = match.index;
    found.push(...callsOfJson("fenced-json", body, start, start + match[0].length, readEnvelope));
  }
  return found;
}
