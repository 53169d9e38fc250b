import { z } from "zod";
import type { McpAnnotations, Tool, ToolProgress, ToolResult } from "../contracts/tools.js";
import { compileArguments } from "./json-schema.js";
import { type McpCallResult, renderResult } from "./result.js";

/** What bosun needs of a connected MCP client: call a tool. */
export interface McpCaller {
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    resultSchema: undefined,
    options: {
      signal: AbortSignal;
      timeout: number;
      resetTimeoutOnProgress?: boolean;
      maxTotalTimeout?: number;
      onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
    },
  ): Promise<unknown>;
}

/** A tool as an MCP server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: McpAnnotations;
}

/** How long a call that keeps reporting progress may run in all, unless config says otherwise. */
export const DEFAULT_MAX_TOTAL_MS = 10 * 60_000;

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
export function mcpTool(
  server: string,
  info: McpToolInfo,
  client: McpCaller,
  timeoutMs: number,
  /** The longest a call may run while the server reports progress (mcp.<name>.max_timeout_ms). */
  maxTotalMs = DEFAULT_MAX_TOTAL_MS,
): Tool {
  const readOnly = info.annotations?.readOnlyHint === true;
  const annotations = keptAnnotations(info.annotations);
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
    mcp: { resource: `${server}/${info.name}`, readOnly, ...(annotations ? { annotations } : {}) },
    requests: async () => ({ requests: [{ action: "mcp", resource: `${server}/${info.name}`, readOnly }] }),
    async execute(input, ctx): Promise<ToolResult> {
      // How often the server said it was still working: the ledger shows why a call outlived its timeout.
      let progress = 0;
      try {
        const result = (await client.callTool({ name: info.name, arguments: input }, undefined, {
          signal: ctx.signal,
          timeout: timeoutMs,
          // A server that reports progress is still working: each report restarts the timeout,
          // up to the total limit, so a long task is not cut at the base timeout.
          resetTimeoutOnProgress: true,
          maxTotalTimeout: Math.max(maxTotalMs, timeoutMs),
          onprogress: (update) => {
            progress++;
            ctx.progress?.(progressOf(update));
          },
        })) as McpCallResult;
        const rendered = renderResult(server, info.name, result);
        return progress > 0 ? { ...rendered, metadata: { ...rendered.metadata, progress } } : rendered;
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

/** What a server's progress notification says, kept to what a person is shown (a message cut to one short line). */
function progressOf(update: { progress: number; total?: number; message?: string }): ToolProgress {
  const message = update.message?.split("\n")[0]?.slice(0, 200);
  return {
    progress: update.progress,
    ...(typeof update.total === "number" ? { total: update.total } : {}),
    ...(message ? { message } : {}),
  };
}

/** The annotations MCP defines, as the server gave them: hints for people and for later seats, never trusted beyond readOnlyHint's one use above. */
function keptAnnotations(given: McpToolInfo["annotations"]): McpAnnotations | undefined {
  if (!given) return undefined;
  const kept: McpAnnotations = {};
  if (typeof given.title === "string") kept.title = given.title;
  for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (typeof given[hint] === "boolean") kept[hint] = given[hint];
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}
