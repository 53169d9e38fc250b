import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { expectDecision } from "../support/ledger.js";
import { startHttpMcpServer } from "../support/mcp-http-server.js";
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

describe("remote MCP servers", () => {
  const weather = {
    rules: [
      {
        match: { request: 1 },
        reply: { toolCalls: [{ id: "w", name: "mcp__remote__weather", arguments: { city: "Oslo" } }] },
      },
      { reply: { text: "Done." } },
    ],
  };

  for (const sseOnly of [false, true]) {
    it(`a url server over ${sseOnly ? "SSE (after Streamable HTTP answers 4xx)" : "Streamable HTTP"}, with a header read from {env:}`, async () => {
      const remote = await startHttpMcpServer({ token: "s3cret", sseOnly });
      const s = await startScenario(weather, {
        global: { mcp: { remote: { url: remote.url, headers: { Authorization: "Bearer {env:REMOTE_TOKEN}" } } } },
      });
      try {
        const result = await s.run(["run", "weather?"], { env: { REMOTE_TOKEN: "s3cret" } });
        assert.equal(result.code, 0, result.stderr);
        assert.match(
          s.server
            .request(2)
            .normalized?.messages.map((m) => m.text)
            .join("\n") ?? "",
          /sunny in Oslo/,
        );
        const connected = expectDecision(s.latest().decisions, "mcp.connect", "code", "connected · 1 tool");
        assert.match(connected.reasons[0]?.detail ?? "", sseOnly ? /^sse http:\/\/127\.0\.0\.1:\d+\/mcp$/ : /^http /);
        assert.ok(remote.authorizations.every((a) => a === "Bearer s3cret"));
      } finally {
        await s.close();
        await remote.close();
      }
    });
  }

  it("a server with both command and url is a config error naming the file, line and key", async () => {
    const s = await startScenario(done, { config: { mcp: { both: { command: "x", url: "http://127.0.0.1:1/mcp" } } } });
    try {
      const result = await s.run(["run", "hello"]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /bosun\.json:\d+.*mcp\.both.*exactly one of command .* or url/s);
    } finally {
      await s.close();
    }
  });
});
