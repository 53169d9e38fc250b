// A real MCP server over stdio for bosun's tests: tools on a folder of notes (the server's
// working directory). `notes_list` is annotated read-only; `notes_write` carries no annotations,
// as many servers' tools do, so bosun must treat it as writing; `notes_sketch` returns an image.
import { readdirSync, writeFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "notes", version: "1.0.0" });

server.registerTool(
  "notes_list",
  { description: "List the notes", inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => ({
    content: [
      {
        type: "text",
        text:
          readdirSync(".")
            .filter((f) => f.endsWith(".note"))
            .join("\n") || "(none)",
      },
    ],
  }),
);

server.registerTool(
  "notes_write",
  { description: "Write a note", inputSchema: { name: z.string(), text: z.string() } },
  async ({ name, text }) => {
    writeFileSync(`${name}.note`, text);
    return { content: [{ type: "text", text: `wrote ${name}.note` }] };
  },
);

/** A one-pixel PNG. */
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

server.registerTool(
  "notes_sketch",
  { description: "A sketch of the notes", inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => ({
    content: [
      { type: "text", text: "the sketch:" },
      { type: "image", data: PIXEL, mimeType: "image/png" },
    ],
  }),
);

await server.connect(new StdioServerTransport());
