import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import { decideAgent } from "../agents/select.js";
import { prepareCall } from "../calls/prepare.js";
import { loadConfig } from "../config/load.js";
import { decideToolsOffered } from "../context/tools-offered.js";
import type { Decision, RecordedDecision } from "../contracts/decisions.js";
import { buildAuthority } from "../permission/rules/layers.js";
import { builtinTools } from "../tools/registry.js";
import { type McpCaller, type McpToolInfo, mcpTool } from "./tool.js";

/** A client that remembers what reached "the server". */
function recordingClient(): McpCaller & { calls: Array<{ name: string; arguments: Record<string, unknown> }> } {
  const calls: Array<{ name: string; arguments: Record<string, unknown> }> = [];
  return {
    calls,
    async callTool(params) {
      calls.push(params);
      return { content: [{ type: "text", text: "ok" }] };
    },
  };
}

const TICKET: McpToolInfo = {
  name: "create_ticket",
  inputSchema: {
    type: "object",
    properties: {
      title: { type: "string" },
      priority: { type: "string", enum: ["low", "high"] },
      estimate: { type: "integer" },
      owner: { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
    },
    required: ["title", "priority"],
    additionalProperties: false,
  },
};

function prepare(info: McpToolInfo, input: unknown) {
  const client = recordingClient();
  const tool = mcpTool("tracker", info, client, 5000);
  const recorded: Decision[] = [];
  const prepared = prepareCall({ id: "m1", name: tool.name, input }, [tool], (d) => recorded.push(d), 2);
  const decisions: RecordedDecision[] = recorded.map((d, i) => ({ ...d, seq: i + 1, at: "" }));
  return { tool, client, prepared, decisions };
}

describe("MCP tools: arguments checked against the server's own schema (call.validate)", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-mcp-tool-")));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("a valid call passes unchanged, and nothing is recorded", () => {
    const { prepared, decisions } = prepare(TICKET, { title: "t", priority: "low", owner: { email: "a@b" } });
    assert.equal(prepared.ok, true);
    assert.deepEqual(prepared.ok && prepared.input, { title: "t", priority: "low", owner: { email: "a@b" } });
    assert.deepEqual(decisions, []);
  });

  it("an invalid call goes back to the model with ajv's problems and their paths, recorded like a built-in's", async () => {
    const { prepared, decisions, client } = prepare(TICKET, {
      title: "t",
      priority: "urgent",
      owner: {},
      assignee: "me",
    });
    assert.equal(prepared.ok, false);
    assert.equal(
      prepared.ok ? "" : prepared.error,
      [
        "Invalid arguments for mcp__tracker__create_ticket:",
        '- (arguments): unknown argument "assignee"',
        '- priority: must be one of "low", "high"',
        "- owner.email: missing (required)",
        "Fix them and call again.",
      ].join("\n"),
    );
    const invalid = expectDecision(decisions, "call.validate", "code", "invalid arguments");
    assert.deepEqual(invalid.subject, { step: 2, call: "m1" });
    assert.deepEqual(
      invalid.reasons.map((r) => [r.rule, r.detail]),
      [
        ["schema", '(arguments): unknown argument "assignee"'],
        ["schema", 'priority: must be one of "low", "high"'],
        ["schema", "owner.email: missing (required)"],
      ],
    );
    assert.deepEqual(client.calls, [], "nothing reached the server");
  });

  it("repair runs first (recorded), then the server's schema checks the repaired call", () => {
    const { prepared, decisions } = prepare(TICKET, { title: "t", priority: "high", estimate: "3" });
    assert.equal(prepared.ok, true);
    assert.deepEqual(prepared.ok && prepared.input, { title: "t", priority: "high", estimate: 3 });
    expectDecision(decisions, "call.repair", "code");
    const still = prepare(TICKET, { title: "t", priority: "high", estimate: "3.5" });
    assert.equal(still.prepared.ok, false, "3.5 is a number, but the schema asks for an integer");
    assert.match(still.prepared.ok ? "" : still.prepared.error, /estimate: must be integer/);
  });

  it("a schema zod cannot read is still checked, not passed as any object", () => {
    const info: McpToolInfo = {
      name: "fetch",
      inputSchema: {
        type: "object",
        properties: { kind: { enum: ["file", "url"] }, path: { type: "string" }, url: { type: "string" } },
        required: ["kind"],
        if: { properties: { kind: { const: "url" } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a promise
        then: { required: ["url"] },
      },
    };
    const bad = prepare(info, { kind: "url", path: "/etc/passwd" });
    assert.equal(bad.prepared.ok, false);
    expectDecision(bad.decisions, "call.validate", "code", "invalid arguments");
    assert.equal(prepare(info, { kind: "url", url: "https://example.com" }).prepared.ok, true);
  });

  it("a 2020-12 schema is read as 2020-12", () => {
    const info: McpToolInfo = {
      name: "move",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { to: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } },
        unevaluatedProperties: false,
      },
    };
    assert.equal(prepare(info, { to: [1, 2] }).prepared.ok, true);
    const bad = prepare(info, { to: [1, 2, 3], speed: 9 });
    assert.match(bad.prepared.ok ? "" : bad.prepared.error, /to: must NOT have more than 2 items/);
    assert.match(bad.prepared.ok ? "" : bad.prepared.error, /must NOT have unevaluated properties/);
  });

  it("a schema ajv cannot compile fails every call with why, and the tool is not offered", () => {
    const info: McpToolInfo = {
      name: "broken",
      inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
    };
    for (const input of [{}, { a: 1 }]) {
      const { prepared, decisions, client } = prepare(info, input);
      assert.equal(prepared.ok, false);
      assert.match(
        prepared.ok ? "" : prepared.error,
        /^mcp__tracker__broken cannot be called: the MCP server tracker gave broken a schema bosun cannot use: its input schema cannot be compiled: can't resolve reference #\/\$defs\/missing/,
      );
      const refused = expectDecision(decisions, "call.validate", "code", "unusable schema");
      assert.match(refused.reasons[0]?.detail ?? "", /can't resolve reference/);
      assert.deepEqual(client.calls, []);
    }

    mkdirSync(join(root, ".git"), { recursive: true });
    const config = loadConfig({ cwd: root, env: { BOSUN_HOME: join(root, "home") } });
    const authority = buildAuthority({
      config,
      agent: decideAgent(undefined, config).agent,
      mode: { name: "approve", holder: "code" },
      cwd: root,
      workspace: root,
      home: join(root, "home"),
    });
    const broken = mcpTool("tracker", info, recordingClient(), 5000);
    const fine = mcpTool("tracker", TICKET, recordingClient(), 5000);
    const result = decideToolsOffered({
      tools: [...builtinTools(), broken, fine],
      authority,
      policy: [],
      modeRunsTools: true,
      modelTakesTools: true,
    });
    assert.ok(!result.offered.includes(broken));
    assert.ok(result.offered.includes(fine));
    assert.ok(
      result.decision.reasons.some(
        (r) =>
          r.rule === "not offered" &&
          r.detail?.startsWith("mcp__tracker__broken: the MCP server tracker gave broken a schema bosun cannot use"),
      ),
    );
  });
});
