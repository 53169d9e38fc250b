import { z } from "zod";
import type { Tool, ToolResult } from "../contracts/tools.js";
import { type McpCallResult, renderResult } from "./result.js";
import { mcpToolName } from "./tool.js";

/** A server listing resources past this many pages is broken; what was listed is kept. */
const MAX_PAGES = 100;

/** A resource as a server lists it (the fields bosun shows). */
interface ListedResource {
  uri: string;
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
}

/** One item of a resource read. */
interface ResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** What the resource tools need of a connected client. */
export interface ResourceClient {
  listResources(
    params: { cursor?: string } | undefined,
    options: { signal: AbortSignal; timeout: number },
  ): Promise<{ resources: unknown[]; nextCursor?: string | undefined }>;
  readResource(
    params: { uri: string },
    options: { signal: AbortSignal; timeout: number },
  ): Promise<{ contents: unknown[] }>;
}

/**
 * A server's resources as two tools the model can call: `mcp__<server>__list_resources` (every
 * page) and `mcp__<server>__read_resource {uri}`. Both make the one request
 * `mcp:<server>/resources`, read-only: reading is all MCP lets a client do with a resource, and
 * a rule `mcp: { "<server>/resources": "deny" }` keeps the model from them. Offered only for a
 * server that declares the resources capability (the caller checks).
 */
export function resourceTools(server: string, client: ResourceClient, timeoutMs: number): Tool[] {
  const resource = `${server}/resources`;
  const common = {
    kind: "mcp" as const,
    mcp: { resource, readOnly: true, annotations: { readOnlyHint: true } },
    requests: async () => ({ requests: [{ action: "mcp" as const, resource, readOnly: true }] }),
  };
  const failed = (what: string, error: unknown, signal: AbortSignal): ToolResult =>
    signal.aborted
      ? { output: "cancelled", isError: true, summary: `${server} ${what} cancelled`, metadata: { cancelled: true } }
      : {
          output: `The MCP server ${server} failed to ${what}: ${(error as Error).message}`,
          isError: true,
          summary: `${server} ${what} failed`,
        };
  const list: Tool = {
    ...common,
    name: mcpToolName(server, "list_resources"),
    description: `List the resources of MCP server ${server}: their URIs, names and types, to read with ${mcpToolName(server, "read_resource")}`,
    schema: z.object({}) as unknown as z.ZodType<Record<string, unknown>>,
    async execute(_input, ctx) {
      try {
        const listed = await listAll(client, { signal: ctx.signal, timeout: timeoutMs });
        return {
          output: listed.map(resourceLine).join("\n") || "(no resources)",
          summary: `${server}: ${listed.length} resource${listed.length === 1 ? "" : "s"}`,
        };
      } catch (error) {
        return failed("list its resources", error, ctx.signal);
      }
    },
  };
  const read: Tool = {
    ...common,
    name: mcpToolName(server, "read_resource"),
    description: `Read one resource of MCP server ${server} by its URI`,
    schema: z.object({ uri: z.string().min(1).describe("The resource's URI") }) as unknown as z.ZodType<
      Record<string, unknown>
    >,
    async execute(input, ctx) {
      const uri = String(input.uri);
      try {
        const { contents } = await client.readResource({ uri }, { signal: ctx.signal, timeout: timeoutMs });
        return renderResult(server, `read ${uri}`, asCallResult(contents as ResourceContent[]));
      } catch (error) {
        return failed(`read ${uri}`, error, ctx.signal);
      }
    },
  };
  return [list, read];
}

/** Every page of a server's resources, following nextCursor. */
async function listAll(client: ResourceClient, options: { signal: AbortSignal; timeout: number }) {
  const out: ListedResource[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await client.listResources(cursor === undefined ? undefined : { cursor }, options);
    out.push(...(listed.resources as ListedResource[]));
    // An empty or repeated cursor would list the same page for ever.
    if (!listed.nextCursor || listed.nextCursor === cursor) break;
    cursor = listed.nextCursor;
  }
  return out;
}

function resourceLine(r: ListedResource): string {
  const type = r.mimeType ? ` (${r.mimeType})` : "";
  const about = r.description ? `: ${r.description}` : "";
  return `${r.uri} — ${r.title ?? r.name ?? "unnamed"}${type}${about}`;
}

/**
 * A read's contents as a tool result's content, so one renderer bounds them: an image blob is
 * an image the model sees, any other content an embedded resource (its text bounded; a blob a
 * note of its URI, type and size).
 */
export function asCallResult(contents: readonly ResourceContent[]): McpCallResult {
  return {
    content: contents.map((c) =>
      typeof c.blob === "string" && c.mimeType?.startsWith("image/")
        ? { type: "image", data: c.blob, mimeType: c.mimeType }
        : { type: "resource", resource: c },
    ),
  };
}
