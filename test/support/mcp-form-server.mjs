// A real MCP server over stdio that asks the person through elicitation: `sign_up` sends a
// two-field form (a required name, a yes/no) and returns what came back, as the model sees it.
// Registered only when the client declares elicitation, as servers do.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "form", version: "1.0.0" });

server.registerTool(
  "sign_up",
  { description: "Sign the person up", inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => {
    const answer = await server.server.elicitInput({
      message: "Sign up for the newsletter",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Your name", minLength: 2 },
          weekly: { type: "boolean", title: "Weekly", default: false },
        },
        required: ["name"],
      },
    });
    return { content: [{ type: "text", text: `form answer: ${JSON.stringify(answer)}` }] };
  },
);

await server.connect(new StdioServerTransport());
