import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

const SCHEMAS_SERVER = fileURLToPath(new URL("../support/mcp-schemas-server.mjs", import.meta.url));

describe("MCP arguments checked against the server's own JSON Schema", () => {
  it("a bad call gets a recorded call.validate and never reaches the server; a broken schema's tool is not offered", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              {
                id: "bad",
                name: "mcp__schemas__create_ticket",
                arguments: { title: "", priority: "urgent", owner: { email: "nobody" }, assignee: "me" },
              },
              { id: "far", name: "mcp__schemas__move", arguments: { to: [1, 2, 3] } },
              { id: "brk", name: "mcp__schemas__broken", arguments: { a: 1 }, unadvertised: true },
              {
                id: "good",
                name: "mcp__schemas__create_ticket",
                arguments: { title: "Fix it", priority: "high", owner: { email: "a@example.com" } },
              },
            ],
          },
        },
        { reply: { text: "Done." } },
      ],
    });
    try {
      const log = join(s.ws.home, "calls.log");
      s.setUserConfig({
        mcp: { schemas: { command: process.execPath, args: [SCHEMAS_SERVER, log] } },
        permission: { mcp: { "schemas/*": "allow" } },
      });
      const result = await s.run(["run", "open a ticket"]);
      assert.equal(result.code, 0, result.stderr);

      // Only the valid call reached the server.
      assert.ok(existsSync(log), "the server received the valid call");
      assert.deepEqual(
        readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line)),
        [
          {
            name: "create_ticket",
            arguments: { title: "Fix it", priority: "high", owner: { email: "a@example.com" } },
          },
        ],
      );

      const { decisions, events } = s.latest();
      const invalid = decisions.filter((d) => d.seat === "call.validate" && d.answer === "invalid arguments");
      assert.deepEqual(
        invalid.map((d) => d.subject?.call),
        ["bad", "far"],
      );
      assert.deepEqual(
        invalid[0]?.reasons.map((r) => r.detail),
        [
          '(arguments): unknown argument "assignee"',
          "title: must NOT have fewer than 1 characters",
          'priority: must be one of "low", "high"',
          'owner.email: must match format "email"',
        ],
      );
      assert.deepEqual(
        invalid[1]?.reasons.map((r) => r.detail),
        ["to: must NOT have more than 2 items"],
      );
      const unusable = expectDecision(decisions, "call.validate", "code", "unusable schema");
      assert.equal(unusable.subject?.call, "brk");
      assert.match(unusable.reasons[0]?.detail ?? "", /can't resolve reference #\/\$defs\/missing/);
      for (const id of ["bad", "far", "brk"]) {
        assert.equal(
          events.some((e) => e.type === "call.started" && (e.data as { id: string }).id === id),
          false,
          `${id} never started`,
        );
      }

      const offered = s.server.request(1).normalized?.tools ?? [];
      assert.ok(offered.includes("mcp__schemas__create_ticket"));
      assert.ok(!offered.includes("mcp__schemas__broken"), "a tool no call of which can be checked is not offered");
      const tools = expectDecision(decisions, "context.tools", "code");
      assert.ok(tools.reasons.some((r) => r.rule === "not offered" && r.detail?.startsWith("mcp__schemas__broken: ")));

      const toModel =
        s.server
          .request(2)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(toModel, /Invalid arguments for mcp__schemas__create_ticket:\n- \(arguments\): unknown argument/);
      assert.match(toModel, /mcp__schemas__broken cannot be called: .*can't resolve reference/);
      assert.match(toModel, /create_ticket: done/);
    } finally {
      await s.close();
    }
  });
});
