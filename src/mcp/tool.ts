import { z } from "zod";
import type { Tool, ToolResult } from "../contracts/tools.js";
import { compileArguments } from "./json-schema.js";

/** What bosun needs of a connected MCP client: call a tool. */
export interface McpCaller {
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    resultSchema: undefined,
    options: { signal: AbortSignal; timeout: number },
  ): Promise<unknown>;
}

/** A tool as an MCP server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

/** The name the model sees: `mcp__<server>__<tool>`, cut to what providers accept. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, 64);
}

/**
 * One MCP server tool as a bosun tool. Its one request is `mcp:<server>/<tool>`, read-only only
 * when the server annotated it `readOnlyHint: true` — an annotation missing or false counts as
 * writing (read-only agents deny it; approve mode asks). The server's JSON Schema is what the
 * model is shown and, compiled once here with ajv (json-schema.ts), what arguments are checked
 * against (seat call.validate); zod's reading of it, where zod can read it, only guides repair.
 * A schema ajv cannot compile fails every call with the reason, and the tool is not offered.
 */
export function mcpTool(server: string, info: McpToolInfo, client: McpCaller, timeoutMs: number): Tool {
  const readOnly = info.annotations?.readOnlyHint === true;
  let schema: z.ZodType<Record<string, unknown>>;
  try {
    schema = z.fromJSONSchema(info.inputSchema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<
      Record<string, unknown>
    >;
  } catch {
    // A schema zod cannot read guides no repair; ajv still checks every call against it.
    schema = z.record(z.string(), z.unknown());
  }
  const compiled = compileArguments(info.inputSchema);
  const unusable = compiled.ok
    ? undefined
    : `the MCP server ${server} gave ${info.name} a schema bosun cannot use: ${compiled.error}`;
  const name = mcpToolName(server, info.name);
  return {
    name,
    description: `${info.description ?? info.annotations?.title ?? info.name} (MCP server ${server})`,
    schema,
    inputJsonSchema: info.inputSchema,
    validate: compiled.ok
      ? compiled.validate
      : () => ({ ok: false, problems: [`(schema): ${unusable}; this tool cannot be called`] }),
    ...(unusable ? { unusable } : {}),
    kind: "mcp",
    mcp: { resource: `${server}/${info.name}`, readOnly },
    requests: async () => ({ requests: [{ action: "mcp", resource: `${server}/${info.name}`, readOnly }] }),
    async execute(input, ctx): Promise<ToolResult> {
      try {
        const result = (await client.callTool({ name: info.name, arguments: input }, undefined, {
          signal: ctx.signal,
          timeout: timeoutMs,
        })) as {
          content?: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
          isError?: boolean;
          structuredContent?: unknown;
        };
        const content = result.content ?? [];
        // Images go to the model as images (to models that take them); the text says where they are.
        const images = content
          .filter((part) => part.type === "image" && typeof part.data === "string")
          .map((part, i) => ({
            path: `${server}/${info.name} image ${i + 1}`,
            mediaType: part.mimeType ?? "image/png",
            data: part.data as string,
          }));
        let image = 0;
        const text = content
          .map((part) => {
            if (part.type === "text") return part.text ?? "";
            if (part.type === "image" && typeof part.data === "string")
              return `[image ${++image}: follows the results]`;
            return `[${part.type} content]`;
          })
          .join("\n");
        const output = text || (result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : "");
        return {
          output: output || "(no output)",
          isError: result.isError === true,
          summary: `${server}/${info.name}${result.isError ? " failed" : ""}`,
          ...(images.length > 0 ? { images } : {}),
        };
      } catch (error) {
        if (ctx.signal.aborted) {
          return {
            output: "cancelled",
            isError: true,
            summary: `${server}/${info.name} cancelled`,
            metadata: { cancelled: true },
          };
        }
        return {
          output: `The MCP server ${server} failed the call: ${(error as Error).message}`,
          isError: true,
          summary: `${server}/${info.name} failed`,
        };
      }
    },
  };
}
