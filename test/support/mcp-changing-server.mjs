// An MCP server over stdio whose tools change: `unlock` adds a tool `secret`, which the SDK
// announces with notifications/tools/list_changed. It waits a moment before answering, so the
// client has listed again by the time the call's result is in.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "changing", version: "1.0.0" });
server.registerTool(
  "unlock",
  { description: "Unlock the secret tool", inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => {
    server.registerTool(
      "secret",
      { description: "Tell the secret", inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => ({ content: [{ type: "text", text: "the secret is 7" }] }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    return { content: [{ type: "text", text: "unlocked" }] };
  },
);
await server.connect(new StdioServerTransport());
