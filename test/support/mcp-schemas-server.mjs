// A real MCP server over stdio whose tools carry hand-written JSON Schemas, as servers not built
// with zod send them: `create_ticket` (draft-07: nested objects, an enum, no extra arguments),
// `move` (2020-12: prefixItems, unevaluatedProperties) and `broken` (a $ref that resolves to
// nothing). It checks nothing itself and appends every call it receives to the file named by its
// first argument, so a test can prove a call bosun refused never reached it.
import { appendFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const log = process.argv[2];

const TOOLS = [
  {
    name: "create_ticket",
    description: "Open a ticket",
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        title: { type: "string", minLength: 1 },
        priority: { type: "string", enum: ["low", "high"] },
        owner: {
          type: "object",
          properties: { email: { type: "string", format: "email" } },
          required: ["email"],
          additionalProperties: false,
        },
      },
      required: ["title", "priority"],
      additionalProperties: false,
    },
  },
  {
    name: "move",
    description: "Move the marker",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { to: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } },
      required: ["to"],
      unevaluatedProperties: false,
    },
  },
  {
    name: "broken",
    description: "A tool whose schema points at nothing",
    inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
  },
];

const server = new Server({ name: "schemas", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  appendFileSync(log, `${JSON.stringify({ name: request.params.name, arguments: request.params.arguments })}\n`);
  return { content: [{ type: "text", text: `${request.params.name}: done` }] };
});

await server.connect(new StdioServerTransport());
