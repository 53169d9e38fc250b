// An MCP server over stdio whose prompts and instructions change. Its one argument is a folder:
// at start it says what `instructions.txt` holds as its instructions and offers one prompt per
// line of `prompts.txt`; its tool `add_prompt {name}` adds a prompt while it runs, which the SDK
// announces with notifications/prompts/list_changed. Each prompt's message is
// "prompt <name> from shifty". For /mcp reconnect: change the files, start it again.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const folder = process.argv[2] ?? ".";
const read = (name) => (existsSync(join(folder, name)) ? readFileSync(join(folder, name), "utf8") : "");
const instructions = read("instructions.txt").trim();
const server = new McpServer({ name: "shifty", version: "1.0.0" }, instructions ? { instructions } : {});
const addPrompt = (name) =>
  server.registerPrompt(name, { description: `The ${name} prompt` }, async () => ({
    messages: [{ role: "user", content: { type: "text", text: `prompt ${name} from shifty` } }],
  }));
for (const name of read("prompts.txt")
  .split("\n")
  .map((line) => line.trim())
  .filter(Boolean))
  addPrompt(name);
server.registerTool(
  "add_prompt",
  { description: "Add a prompt", inputSchema: { name: z.string() }, annotations: { readOnlyHint: true } },
  async ({ name }) => {
    addPrompt(name);
    // A moment for the client to list the prompts again before the result is in.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { content: [{ type: "text", text: `added ${name}` }] };
  },
);
await server.connect(new StdioServerTransport());
