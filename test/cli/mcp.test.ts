import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

const NOTES_SERVER = fileURLToPath(new URL("../support/mcp-notes-server.mjs", import.meta.url));
const PROBE_SERVER = fileURLToPath(new URL("../support/redteam-round4-mcp.mjs", import.meta.url));
const mcp = { notes: { command: process.execPath, args: [NOTES_SERVER] } };
const script = {
  rules: [
    {
      match: { request: 1, tool: "mcp__notes__notes_write" },
      reply: {
        toolCalls: [
          { id: "list", name: "mcp__notes__notes_list", arguments: {} },
          { id: "write", name: "mcp__notes__notes_write", arguments: { name: "todo", text: "ship it" } },
        ],
      },
    },
    { reply: { text: "Done." } },
  ],
};

describe("MCP tools under the authority layer", () => {
  it("a tool annotated read-only runs in approve mode; one without annotations asks (and nobody can approve)", async () => {
    const s = await startScenario(script, { global: { mcp } });
    try {
      const result = await s.run(["run", "take notes"]);
      assert.equal(result.code, 3, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "todo.note")), false);
      const { decisions } = s.latest();
      const list = decisions.find((d) => d.seat === "call.permission" && d.subject?.call === "list");
      assert.equal(list?.answer, "allow");
      assert.match(list?.reasons.at(-1)?.detail ?? "", /^mcp:notes\/notes_list \(read-only\)$/);
      const write = decisions.find((d) => d.seat === "call.permission" && d.subject?.call === "write");
      assert.equal(write?.answer, "ask");
      assert.match(write?.reasons.at(-1)?.detail ?? "", /^mcp:notes\/notes_write \(writes\)$/);
      expectDecision(decisions, "call.approval", "code", "deny");
      assert.match(
        s.server
          .request(2)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "",
        /\(none\)/,
      );
    } finally {
      await s.close();
    }
  });

  it("plan is not offered the unannotated tool, denies it when called anyway, and --auto cannot lift that", async () => {
    const planScript = {
      rules: [
        {
          match: { request: 1, tool: "mcp__notes__notes_list" },
          reply: {
            toolCalls: [
              {
                id: "write",
                name: "mcp__notes__notes_write",
                arguments: { name: "todo", text: "ship it" },
                unadvertised: true,
              },
            ],
          },
        },
        { reply: { text: "Done." } },
      ],
    };
    const s = await startScenario(planScript, { global: { mcp } });
    try {
      const result = await s.run(["run", "--agent", "plan", "--auto", "take notes"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "todo.note")), false);
      assert.ok(!s.server.request(1).normalized?.tools.includes("mcp__notes__notes_write"));
      const offered = expectDecision(s.latest().decisions, "context.tools", "code");
      assert.ok(offered.reasons.some((r) => r.detail === "mcp__notes__notes_write: agent plan is read-only"));
      const denied = expectDecision(s.latest().decisions, "call.permission", "code", "deny");
      assert.match(denied.reasons[0]?.detail ?? "", /agent plan is read-only: an MCP tool not annotated read-only/);
    } finally {
      await s.close();
    }
  });

  it("runs the tool for real when a rule allows it", async () => {
    const s = await startScenario(script, { global: { mcp, permission: { mcp: { "notes/notes_write": "allow" } } } });
    try {
      const result = await s.run(["run", "take notes"]);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(existsSync(join(s.ws.dir, "todo.note")));
      expectDecision(s.latest().decisions, "call.permission", "config", "allow");
    } finally {
      await s.close();
    }
  });

  it("a server the repository's own config names starts only when judged allowed (project.command), and runs sealed", async () => {
    // The repository brings its server as a file of its own (dependency-free): a sealed server
    // sees the workspace, not the folders around it (a checkout of bosun under /tmp included).
    const s = await startScenario(
      { rules: [{ reply: { text: "Done." } }] },
      {
        config: {
          mcp: {
            probe: {
              command: process.execPath,
              args: ["r/mcp.mjs", "probe", "write=made-by-server.txt", "write=../beside.txt"],
            },
          },
        },
      },
    );
    try {
      s.ws.write("r/mcp.mjs", readFileSync(PROBE_SERVER, "utf8"));
      const refused = await s.run(["run", "go"]);
      assert.match(refused.stderr, /not running mcp\.probe from .*bosun\.json \(not run: nobody approved it/);
      const skip = expectDecision(s.latest().decisions, "project.command", "code", "skip");
      assert.equal(skip.subject?.key, "mcp.probe");
      assert.ok(skip.reasons.some((r) => r.detail?.includes("r/mcp.mjs")));
      assert.deepEqual(
        s.server.request(1).normalized?.tools.filter((t) => t.startsWith("mcp__")),
        [],
      );
      assert.equal(existsSync(join(s.ws.dir, "made-by-server.txt")), false);
      // The person trusts it for this run: --allow is a rule of theirs, not the repository's.
      s.server.requests.length = 0;
      const trusted = await s.run([
        "run",
        "--allow",
        `shell:${process.execPath} *`,
        "--allow",
        `external_directory:${dirname(process.execPath)}/**`,
        "--allow",
        "edit",
        // Even a rule that lets it name a path beside the workspace does not make that writable.
        "--allow",
        `external_directory:${dirname(s.ws.dir)}/**`,
        "go",
      ]);
      assert.equal(trusted.code, 0, trusted.stderr);
      expectDecision(s.latest().decisions, "project.command", "person", "run");
      // It ran sealed: allowed by name, so the workspace was writable — and only the workspace.
      const sealed = s.latest().decisions.find((d) => d.seat === "exec.sandbox" && d.subject?.key === "mcp.probe");
      assert.equal(sealed?.answer, "workspace-write", JSON.stringify(sealed));
      assert.equal(sealed?.holder, "code");
      assert.ok(s.server.request(1).normalized?.tools.includes("mcp__probe__probe_probe"));
      assert.ok(existsSync(join(s.ws.dir, "made-by-server.txt")));
      assert.equal(existsSync(join(s.ws.dir, "..", "beside.txt")), false);
    } finally {
      await s.close();
    }
  });

  it("a required server that cannot start stops the run with an error naming it", async () => {
    const s = await startScenario(script, {
      global: { mcp: { broken: { command: "/nonexistent/server", required: true } } },
    });
    try {
      const result = await s.run(["run", "take notes"]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /MCP server "broken" failed \(spawn \/nonexistent\/server ENOENT\)/);
      assert.equal(s.server.requests.length, 0);
    } finally {
      await s.close();
    }
  });
  it("an image a tool returns follows the results, for a model that takes images", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { request: 1 },
            reply: { toolCalls: [{ id: "sk", name: "mcp__notes__notes_sketch", arguments: {} }] },
          },
          { reply: { text: "Done." } },
        ],
      },
      { global: { mcp } },
    );
    try {
      const base = s.server.configFor("openai-compatible");
      s.setUserConfig({
        mcp,
        provider: { scripted: { ...base.provider.scripted, models: { "test-model": { images: true } } } },
      });
      const result = await s.run(["run", "sketch"]);
      assert.equal(result.code, 0, result.stderr);
      const messages = s.server.request(2).normalized?.messages ?? [];
      assert.match(messages.at(-2)?.text ?? "", /tool_result sk: the sketch:\n\[image 1: follows the results\]/);
      assert.match(messages.at(-1)?.text ?? "", /Image notes\/notes_sketch image 1 from call sk:\n\[image_url\]/);
    } finally {
      await s.close();
    }
  });
});
