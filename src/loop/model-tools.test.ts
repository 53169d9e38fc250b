import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asSchema, streamText } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import type { Tool } from "../contracts/tools.js";
import { builtinTools } from "../tools/registry.js";
import { toModelTools } from "./model-tools.js";

const TOOLS = builtinTools();

describe("toModelTools", () => {
  const set = toModelTools(TOOLS);

  it("turns every tool into an AI SDK tool under its own name, in order", () => {
    assert.deepEqual(
      Object.keys(set),
      TOOLS.map((t) => t.name),
    );
  });

  it("gives each the tool's description and its input JSON Schema without $schema", async () => {
    for (const tool of TOOLS) {
      const sdkTool = set[tool.name];
      assert.ok(sdkTool, tool.name);
      assert.equal(sdkTool.description, tool.description);
      const schema = (await asSchema(sdkTool.inputSchema).jsonSchema) as Record<string, unknown>;
      assert.equal("$schema" in schema, false, tool.name);
      const expected = z.toJSONSchema(tool.schema, { io: "input" }) as Record<string, unknown>;
      delete expected.$schema;
      assert.deepEqual(schema, expected, tool.name);
      assert.equal(schema.type, "object");
      assert.equal(schema.additionalProperties, false);
    }
  });

  it("shows the model the argument names, descriptions and required list", async () => {
    const schema = (await asSchema(set.read?.inputSchema).jsonSchema) as {
      properties: Record<string, { type?: string; description?: string; minimum?: number; maximum?: number }>;
      required: string[];
    };
    assert.deepEqual(Object.keys(schema.properties), ["path", "offset", "limit"]);
    assert.deepEqual(schema.required, ["path"]);
    assert.equal(schema.properties.path?.description, "File or folder");
    assert.equal(schema.properties.offset?.type, "integer");
    assert.equal(schema.properties.offset?.minimum, 1);
    assert.equal(schema.properties.offset?.maximum, undefined);
  });

  it("does not give the SDK a validator: bosun's own seats check the arguments", () => {
    for (const tool of TOOLS) {
      const schema = asSchema(set[tool.name]?.inputSchema);
      assert.equal(schema.validate, undefined, tool.name);
    }
  });

  it("lets the SDK hand over schema-breaking and double-encoded arguments as the model sent them", async () => {
    // The SDK's own stand-in for a model (the model is the one part that cannot run here).
    const sent = ['{"path": 42, "unknown_argument": true}', JSON.stringify('{"path": "a.txt"}'), '{"path": "a'];
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: convertArrayToReadableStream([
          ...sent.map((input, i) => ({ type: "tool-call" as const, toolCallId: `c${i}`, toolName: "read", input })),
          {
            type: "finish" as const,
            finishReason: { unified: "tool-calls" as const, raw: undefined },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: 1, text: 1, reasoning: 0 },
            },
          },
        ]),
      }),
    });
    const result = streamText({ model, prompt: "go", tools: set });
    const calls: Array<{ input: unknown; invalid?: boolean }> = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-call")
        calls.push({ input: part.input, ...("invalid" in part ? { invalid: part.invalid } : {}) });
    }
    assert.deepEqual(calls, [
      // Not validated: bosun's call.validate sees it.
      { input: { path: 42, unknown_argument: true } },
      // One layer read: the string that is left is the call.repair "(arguments)" case.
      { input: '{"path": "a.txt"}' },
      // Unreadable: handed over raw, for call.parse to quote.
      { input: '{"path": "a', invalid: true },
    ]);
  });

  it("returns an empty set for no tools", () => {
    assert.deepEqual(toModelTools([]), {});
  });

  it("handles a tool with a non-strict schema (no additionalProperties false invented)", async () => {
    const loose: Tool = {
      name: "loose",
      description: "A loose tool",
      schema: z.object({ a: z.string().default("x") }),
      kind: "read",
      requests: async () => ({ requests: [] }),
      execute: async () => ({ output: "", summary: "" }),
    };
    const schema = (await asSchema(toModelTools([loose]).loose?.inputSchema).jsonSchema) as Record<string, unknown>;
    assert.equal(schema.additionalProperties, undefined);
    // The input side of a default: optional for the model.
    assert.deepEqual(schema.required, undefined);
  });
});
