import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decideCollisions } from "./collisions.js";
import { RESOURCE_TEXT_CHARS, renderResult } from "./result.js";
import { mcpTool } from "./tool.js";

describe("MCP tool results", () => {
  it("an embedded text resource is shown under its URI, bounded; a blob is a note of its URI and type", () => {
    const long = "x".repeat(RESOURCE_TEXT_CHARS + 10);
    const result = renderResult("docs", "get", {
      content: [
        { type: "resource", resource: { uri: "file:///a.md", mimeType: "text/markdown", text: "# A" } },
        { type: "resource", resource: { uri: "file:///big.txt", text: long } },
        { type: "resource", resource: { uri: "file:///p.bin", mimeType: "application/octet-stream", blob: "AAAA" } },
      ],
    });
    const [first, second, third] = result.output.split(/\n(?=\[resource )/);
    assert.equal(first, "[resource file:///a.md (text/markdown)]\n# A");
    assert.match(second ?? "", /\[… cut at 20000 of 20010 characters\]$/);
    assert.ok((second ?? "").length < RESOURCE_TEXT_CHARS + 100);
    assert.equal(third, "[resource file:///p.bin (application/octet-stream), 3 bytes: binary, not shown]");
  });

  it("a resource link gives its name and URI; structuredContent stands in for no content", () => {
    const link = renderResult("docs", "find", {
      content: [{ type: "resource_link", uri: "file:///r.txt", name: "r.txt", mimeType: "text/plain" }],
    });
    assert.equal(link.output, "[resource link: r.txt file:///r.txt (text/plain)]");
    const structured = renderResult("calc", "sum", { structuredContent: { sum: 3 } });
    assert.equal(structured.output, '{"sum":3}');
    assert.equal(renderResult("calc", "nothing", {}).output, "(no output)");
  });

  it("a tool keeps the server's annotations", () => {
    const tool = mcpTool(
      "fs",
      {
        name: "read",
        inputSchema: { type: "object" },
        annotations: {
          title: "Read",
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      { callTool: async () => ({ content: [] }) },
      1000,
    );
    assert.deepEqual(tool.mcp?.annotations, {
      title: "Read",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it("tools that share a name (after the 64-character cut) or take a built-in's are all refused, with why", () => {
    const refused = decideCollisions(
      ["read"],
      [
        { name: "mcp__a__x", server: "a", tool: "x.y" },
        { name: "mcp__a__x", server: "a", tool: "x_y" },
        { name: "mcp__b__ok", server: "b", tool: "ok" },
        { name: "read", server: "c", tool: "read" },
      ],
    );
    assert.deepEqual([...refused.keys()], ["mcp__a__x", "read"]);
    assert.equal(refused.get("mcp__a__x"), "mcp__a__x is the name of 2 MCP tools (a/x.y, a/x_y): all refused");
    assert.match(refused.get("read") ?? "", /built-in/);
  });
});
