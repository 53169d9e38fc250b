import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** A remote MCP server for tests, on 127.0.0.1 at a free port. */
export interface HttpMcpServer {
  url: string;
  /** The Authorization header of every request it got. */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

function toolServer(): McpServer {
  const server = new McpServer({ name: "remote", version: "1.0.0" });
  server.registerTool(
    "weather",
    {
      description: "Today's weather in a city",
      inputSchema: { city: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ city }) => ({ content: [{ type: "text", text: `sunny in ${city}` }] }),
  );
  // Resources, so the server declares the capability: a text, and an image as a blob.
  server.registerResource(
    "readme",
    "remote://readme",
    { mimeType: "text/plain", description: "How to use it" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "Ask for the weather by city." }] }),
  );
  server.registerResource("pixel", "remote://pixel.png", { mimeType: "image/png" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "image/png", blob: PIXEL }],
  }));
  return server;
}

/** A one-pixel PNG. */
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/**
 * Streamable HTTP (stateless: a new server per request, as the SDK's example does), or with
 * `sseOnly` an older server that answers a Streamable HTTP POST with 405 and speaks SSE instead.
 * A `token` makes every request without `Authorization: Bearer <token>` a 401.
 */
export async function startHttpMcpServer(options: { token?: string; sseOnly?: boolean } = {}): Promise<HttpMcpServer> {
  const authorizations: Array<string | undefined> = [];
  const sse = new Map<string, SSEServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    authorizations.push(req.headers.authorization);
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401).end("unauthorized");
      return;
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (options.sseOnly) {
      if (req.method === "GET" && url.pathname === "/mcp") {
        const transport = new SSEServerTransport("/messages", res);
        sse.set(transport.sessionId, transport);
        await toolServer().connect(transport);
        return;
      }
      const transport = sse.get(url.searchParams.get("sessionId") ?? "");
      if (req.method === "POST" && url.pathname === "/messages" && transport) {
        await transport.handlePostMessage(req, res);
        return;
      }
      res.writeHead(405).end("method not allowed");
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void transport.close());
    await toolServer().connect(transport);
    await transport.handleRequest(req, res);
  };
  const http: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
