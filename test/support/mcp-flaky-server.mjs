// An MCP server over stdio that is not ready until a file exists: without it, it says why on
// stderr and exits 1 (a failed start); with it, it offers one tool, `hello`. Its one argument is
// the file's path. For /mcp reconnect: the person fixes what was wrong, then starts it again.
import { existsSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const flag = process.argv[2] ?? "";
if (!existsSync(flag)) {
  process.stderr.write(`flaky: starting up\nflaky: not ready: no flag file at ${flag}\n`);
  process.exit(1);
}
const server = new McpServer({ name: "flaky", version: "1.0.0" });
server.registerTool(
  "hello",
  { description: "Say hello", inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => ({ content: [{ type: "text", text: "hello from flaky" }] }),
);
await server.connect(new StdioServerTransport());
