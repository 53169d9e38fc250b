import { bareCalls } from "./bare.js";
import { fencedCalls } from "./fenced.js";
import type { FoundCall, TextFormat } from "./found.js";
import { hermesCalls } from "./hermes.js";
import { llamaCalls } from "./llama.js";
import { mistralCalls } from "./mistral.js";

/**
 * The formats, most explicit first: a model's own call token ([TOOL_CALLS], <tool_call>,
 * <|python_tag|>) says it meant a call; a fence or a bare object is read only when none of those
 * is there. The first format that finds any call is the answer's: formats are not mixed.
 */
const FORMATS: readonly { format: TextFormat; find: (text: string) => FoundCall[] }[] = [
  { format: "mistral", find: (text) => mistralCalls(unquoted(text)) },
  { format: "hermes", find: (text) => hermesCalls(unquoted(text)) },
  { format: "llama", find: (text) => llamaCalls(unquoted(text)) },
  { format: "fenced-json", find: fencedCalls },
  { format: "bare-json", find: bareCalls },
];

/** The calls written in an answer's text, in order; none when it holds none of the formats. */
export function findTextCalls(text: string): FoundCall[] {
  for (const { find } of FORMATS) {
    const found = find(text);
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * The text with what it quotes as code blanked out, offsets kept: a call token inside a fence or
 * a `code span` is the model showing the format (explaining it, quoting a file), not calling.
 * What is left is the text as written, so a call found in it is read, and spanned, the same.
 */
export function unquoted(text: string): string {
  const blank = (quoted: string) => quoted.replace(/[^\n]/g, " ");
  return text.replace(/```[\s\S]*?(?:```|$)/g, blank).replace(/`[^`\n]*`/g, blank);
}
