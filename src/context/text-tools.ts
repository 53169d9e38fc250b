import { z } from "zod";
import type { Tool } from "../contracts/tools.js";

/**
 * The tools described in the system prompt, for a model configured `tools: "text"`: no tool is
 * sent natively, so each one's name, description and input schema is written here, with the one
 * format to call them in. The Hermes tags are asked for because they are delimited both ends
 * (a fence or bare JSON cannot be told from an example) and many open models were trained on
 * them; the other formats such models slip into are read too (calls/text/classify.ts).
 */
export function textToolsPrompt(tools: readonly Tool[]): string {
  const described = tools
    .filter((t) => !t.native)
    .map((t) => {
      const schema = {
        ...(t.inputJsonSchema ?? (z.toJSONSchema(t.schema, { io: "input" }) as Record<string, unknown>)),
      };
      delete schema.$schema;
      return `## ${t.name}\n${t.description}\nInput schema: ${JSON.stringify(schema)}`;
    });
  if (described.length === 0) return "";
  return [
    "# Tools",
    "You call a tool by writing, in your answer, exactly:",
    '<tool_call>{"name": "<tool name>", "arguments": {<its input, as JSON>}}</tool_call>',
    "One tag per call; several tags call several tools. Write nothing after your calls: their results come back in the next message, starting with [bosun], inside <tool_result> tags. When the task is done, answer without any <tool_call>.",
    ...described,
  ].join("\n\n");
}
