import { jsonSchema, type ToolSet, tool } from "ai";
import { z } from "zod";
import type { Tool } from "../contracts/tools.js";

/**
 * The tools as the model sees them. Their JSON Schema is sent, but the SDK is not asked to
 * validate: parsing, repair and validation are bosun's seats (call.parse, call.repair,
 * call.validate), recorded, with errors the model can act on.
 */
export function toModelTools(tools: readonly Tool[], native: ToolSet = {}): ToolSet {
  const set: ToolSet = {};
  for (const t of tools) {
    // A provider-run tool goes as the provider's own (its web search), or not at all.
    if (t.native) {
      const own = native[t.name];
      if (own) set[t.name] = own;
      continue;
    }
    const schema = { ...(t.inputJsonSchema ?? (z.toJSONSchema(t.schema, { io: "input" }) as Record<string, unknown>)) };
    delete schema.$schema;
    set[t.name] = tool({ description: t.description, inputSchema: jsonSchema(schema) });
  }
  return set;
}
