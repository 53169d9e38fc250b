import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const FILESYSTEM = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url),
);
const CHANGING_SERVER = fileURLToPath(new URL("../support/mcp-changing-server.mjs", import.meta.url));
const NOTES_SERVER = fileURLToPath(new URL("../support/mcp-notes-server.mjs", import.meta.url));

/** One step of tool calls, then "Done."; what the model was sent after them is request 2. */
function callsThenDone(
  toolCalls: Array<{ id: string; name: string; arguments: Record<string, unknown>; unadvertised?: boolean }>,
) {
  return { rules: [{ match: { request: 1 }, reply: { toolCalls } }, { reply: { text: "Done." } }] };
}

function sentText(s: { server: { request(n: number): { normalized?: { messages: Array<{ text?: string }> } } } }) {
  return (
    s.server
      .request(2)
      .normalized?.messages.map((m) => m.text)
      .join("\n") ?? ""
  );
}

describe("real MCP servers", () => {
  it("server-everything: an embedded resource reaches the model; a long task reporting progress outlives the base timeout", async () => {
    const s = await startScenario(
      callsThenDone([
        { id: "ref", name: "mcp__everything__get-resource-reference", arguments: { resourceId: 2 } },
        {
          id: "long",
          name: "mcp__everything__trigger-long-running-operation",
          arguments: { duration: 3, steps: 6 },
        },
      ]),
      // Half a second between reports, 1.5 s per call: only a timeout that progress restarts lets it finish.
      { global: { mcp: { everything: { command: process.execPath, args: [EVERYTHING], timeout_ms: 1500 } } } },
    );
    try {
      const result = await s.run(["run", "use everything"]);
      assert.equal(result.code, 0, result.stderr);
      const sent = sentText(s);
      assert.match(sent, /\[resource \S+\/2 \(text\/plain\)\]\nResource 2: This is a plaintext resource/);
      assert.match(sent, /Long running operation completed\. Duration: 3 seconds, Steps: 6\./);
      // Its progress in plain text: on stderr, bounded (into a pipe, one line per call every 5 s:
      // the first of six reports over 3 s), never on stdout with the answer.
      const progress = result.stderr.split("\n").filter((line) => line.startsWith("  … "));
      assert.deepEqual(
        progress.map((line) => line.replace(/ · .*$/, "")),
        ["  … mcp__everything__trigger-long-running-operation 1/6"],
        result.stderr,
      );
      assert.doesNotMatch(result.stdout, /…|trigger-long-running/);
      const { decisions } = s.latest();
      expectDecision(decisions, "mcp.connect", "code");
      // The first is its start; it may list its tools again after (it adds some once it knows the client's capabilities).
      const connected = decisions.find((d) => d.seat === "mcp.connect");
      assert.match(String(connected?.answer), /^connected · \d+ tools$/);
      // Its instructions (over 4000 characters) are in the system prompt, cut, and listed as loaded.
      const system = s.server.request(1).normalized?.system ?? "";
      assert.match(system, /Instructions from MCP server everything:\n# Everything Server – Server Instructions/);
      assert.match(system, /\[… cut at 4000 of \d+ characters\]|Easter Egg/);
      const instructions = expectDecision(decisions, "context.instructions", "code");
      assert.ok((instructions.answer as string[]).includes("MCP server everything"));
      // Annotated read-only, so approve mode lets it run.
      const ref = decisions.find((d) => d.seat === "call.permission" && d.subject?.call === "ref");
      assert.equal(ref?.answer, "allow");
    } finally {
      await s.close();
    }
  });

  it("server-filesystem reads a file of the workspace", async () => {
    // Its one argument is the folder it may read; "." is the workspace, where bosun starts it.
    const s = await startScenario(
      callsThenDone([{ id: "read", name: "mcp__fs__read_text_file", arguments: { path: "notes.txt" } }]),
      { global: { mcp: { fs: { command: process.execPath, args: [FILESYSTEM, "."] } } } },
    );
    try {
      s.ws.write("notes.txt", "the launch code is 42\n");
      const result = await s.run(["run", "read it"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(sentText(s), /the launch code is 42/);
      expectDecision(s.latest().decisions, "mcp.connect", "code", "connected · 14 tools");
    } finally {
      await s.close();
    }
  });

  it("tools whose names collide after the 64-character cut are all refused, warned about and recorded", async () => {
    const long = "n".repeat(59);
    const name = `mcp__${long}`;
    const notes = { command: process.execPath, args: [NOTES_SERVER] };
    const s = await startScenario(callsThenDone([{ id: "c", name, arguments: {}, unadvertised: true }]), {
      global: { mcp: { [`${long}a`]: notes, [`${long}b`]: notes } },
    });
    try {
      const result = await s.run(["run", "--auto", "list"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /is the name of 6 MCP tools .*: all refused/);
      assert.ok(!s.server.request(1).normalized?.tools.includes(name));
      assert.match(sentText(s), /cannot be called: .*all refused/);
      const { decisions } = s.latest();
      const connect = decisions.find((d) => d.seat === "mcp.connect" && d.subject?.server === `${long}a`);
      assert.ok(connect?.reasons.some((r) => r.rule === "refused" && /all refused/.test(r.detail ?? "")));
    } finally {
      await s.close();
    }
  });

  it("tools/list_changed: the new tool is offered from the next step, and both changes are recorded", async () => {
    const s = await startScenario(
      {
        rules: [
          { match: { request: 1 }, reply: { toolCalls: [{ id: "u", name: "mcp__changing__unlock", arguments: {} }] } },
          { match: { request: 2 }, reply: { toolCalls: [{ id: "s", name: "mcp__changing__secret", arguments: {} }] } },
          { reply: { text: "Done." } },
        ],
      },
      { global: { mcp: { changing: { command: process.execPath, args: [CHANGING_SERVER] } } } },
    );
    try {
      const result = await s.run(["run", "unlock it"]);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(!s.server.request(1).normalized?.tools.includes("mcp__changing__secret"));
      assert.ok(s.server.request(2).normalized?.tools.includes("mcp__changing__secret"));
      assert.match(
        s.server
          .request(3)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "",
        /the secret is 7/,
      );
      const { decisions } = s.latest();
      expectDecision(decisions, "mcp.connect", "code", "relisted · 2 tools");
      const step2 = decisions.find((d) => d.seat === "context.tools" && d.subject?.step === 2);
      assert.equal(step2?.reasons[0]?.rule, "tool set changed");
    } finally {
      await s.close();
    }
  });
});
