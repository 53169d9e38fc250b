import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

const NOTES_SERVER = fileURLToPath(new URL("../support/mcp-notes-server.mjs", import.meta.url));
// A server that says why on stderr and exits before it ever answers.
const broken = {
  command: process.execPath,
  args: ["-e", "console.error('starting'); console.error('fatal: GITHUB_TOKEN is not set'); process.exit(3)"],
};
const done = { rules: [{ reply: { text: "Done." } }] };

describe("MCP servers that fail to start", () => {
  it("a failing server is recorded with its stderr and warned about; the run goes on with the others' tools", async () => {
    const s = await startScenario(done, {
      global: { mcp: { broken, notes: { command: process.execPath, args: [NOTES_SERVER] } } },
    });
    try {
      const result = await s.run(["run", "hello"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /MCP server "broken" failed/);
      assert.match(result.stderr, /fatal: GITHUB_TOKEN is not set/);
      const { decisions } = s.latest();
      const failed = decisions.find((d) => d.seat === "mcp.connect" && d.subject?.server === "broken");
      assert.equal(failed?.answer, "failed");
      assert.equal(failed?.holder, "code");
      assert.match(failed?.reasons.find((r) => r.rule === "stderr")?.detail ?? "", /fatal: GITHUB_TOKEN is not set/);
      const notes = expectDecision(decisions, "mcp.connect", "code", "connected · 3 tools");
      assert.equal(notes.subject?.server, "notes");
      assert.ok(s.server.request(1).normalized?.tools.includes("mcp__notes__notes_list"));
    } finally {
      await s.close();
    }
  });

  it("required: true stops the run with exit 1, naming the server and its stderr, with no stack trace", async () => {
    const s = await startScenario(done, { global: { mcp: { broken: { ...broken, required: true } } } });
    try {
      const result = await s.run(["run", "hello"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /MCP server "broken" failed/);
      assert.match(result.stderr, /fatal: GITHUB_TOKEN is not set/);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
      expectDecision(s.latest().decisions, "mcp.connect", "config", "failed");
      assert.equal(s.server.requests.length, 0);
    } finally {
      await s.close();
    }
  });
});
