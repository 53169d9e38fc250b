import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ConfiguredServer } from "../../mcp/configured.js";
import { listLines, stateText, toolLine } from "./mcp-text.js";

const server = (name: string, extra: Partial<ConfiguredServer> = {}): ConfiguredServer => ({
  name,
  origin: { layer: "global", source: "/h/bosun.json", file: "/h/bosun.json", line: 3 },
  alsoSetIn: [],
  transport: "stdio",
  enabled: true,
  required: false,
  fromProject: false,
  shown: { command: "x" },
  ...extra,
});

describe("mcp list's words", () => {
  it("a state says what a run would do with the server", () => {
    assert.equal(stateText({ start: "disabled" }), "disabled");
    assert.equal(stateText({ start: "needs trust", why: "nobody approved it" }), "needs trust (nobody approved it)");
    assert.equal(stateText({ start: "yes" }), "not checked");
    assert.equal(stateText({ start: "yes", check: { status: "connected", tools: 1 } }), "connected · 1 tool");
    assert.equal(stateText({ start: "yes", check: { status: "failed", message: "closed" } }), "failed: closed");
  });

  it("rows line up, a required server says so, a failure's last stderr lines follow it", () => {
    const lines = listLines([
      { server: server("a", { required: true }), state: { start: "yes", check: { status: "connected", tools: 2 } } },
      {
        server: server("longer", { transport: "http, then sse" }),
        state: { start: "yes", check: { status: "failed", message: "x", stderr: ["1", "2", "3", "4", "5", "6"] } },
      },
    ]);
    assert.equal(lines[0], "a       stdio           global /h/bosun.json:3  required · connected · 2 tools");
    assert.equal(lines[1], "longer  http, then sse  global /h/bosun.json:3  failed: x");
    assert.deepEqual(lines.slice(2), ["    | 2", "    | 3", "    | 4", "    | 5", "    | 6"]);
  });

  it("a tool: its description's first line and what its annotations say", () => {
    assert.equal(
      toolLine({ name: "rm", description: "Deletes.\nMore.", inputSchema: {}, annotations: { destructiveHint: true } }),
      "rm — Deletes. [destructive]",
    );
    assert.equal(
      toolLine({ name: "ls", inputSchema: {}, annotations: { readOnlyHint: true, destructiveHint: true } }),
      "ls [read-only]",
    );
  });
});
