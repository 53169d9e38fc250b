import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { type Scenario, sentText, startScenario } from "../support/scenario.js";

/** Tool calls written as text (seat call.shim): read, gated like native calls, results sent back as text. */

function textMode(s: Scenario, tools: string = "text"): void {
  const scripted = s.server.configFor("openai-compatible").provider.scripted;
  s.setUserConfig({ provider: { scripted: { ...scripted, models: { "test-model": { tools } } } } });
}

const fenced = [
  "I'll look at the file first.",
  "```json",
  '{"name": "read", "arguments": {"path": "notes.txt"}}',
  "```",
].join("\n");

describe("tool calls written as text", () => {
  it('tools: "text" sends no native tools, describes them in the system prompt; a fenced JSON call runs and its result goes back as text', async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: { text: fenced } },
        { match: { request: 2 }, reply: { text: "The notes say hello." } },
      ],
    });
    try {
      textMode(s);
      s.ws.write("notes.txt", "hello from the notes\n");
      const result = await s.run(["run", "what do the notes say?"]);
      assert.equal(result.code, 0, result.stderr);
      const first = s.server.request(1);
      assert.deepEqual(first.normalized?.tools, []);
      assert.equal((first.json as { tools?: unknown }).tools, undefined, "no tools in the request body");
      const system = first.normalized?.system ?? "";
      assert.match(system, /<tool_call>\{"name": "<tool name>", "arguments"/);
      assert.match(system, /## read\n/);
      assert.match(system, /Input schema: \{"type":"object"/);
      const second = s.server.request(2).normalized;
      assert.ok(second);
      assert.ok(!second.messages.some((m) => m.role === "tool"), "no tool role for text calls");
      assert.match(
        sentText(s, 2),
        /\[bosun\] Results of your tool calls:\n<tool_result name="read" call="textcall_1_1">/,
      );
      assert.match(sentText(s, 2), /hello from the notes/);
      const { decisions } = s.latest();
      const mode = expectDecision(decisions, "call.shim", "config", { mode: "text" });
      assert.match(mode.reasons[0]?.detail ?? "", /provider\.scripted\.models\["test-model"\]\.tools is "text"/);
      const read = expectDecision(decisions, "call.shim", "code");
      const answer = read.answer as { format: string; raw: string; parsed: { name: string } };
      assert.equal(answer.format, "fenced-json");
      assert.equal(answer.parsed.name, "read");
      assert.match(answer.raw, /^```json\n\{"name": "read"/);
      assert.equal(read.subject?.call, "textcall_1_1");
    } finally {
      await s.close();
    }
  });

  it("a Hermes <tool_call> is read and run; a broken call gets an error result and the model recovers", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: { text: '<tool_call>\n{"name": "read", "arguments": {"path": "notes.txt", }}\n</tool_call>' },
        },
        {
          match: { request: 2 },
          reply: { text: "<tool_call>\n{'name': 'read', 'arguments': {'path': 'notes.txt'}}\n</tool_call>" },
        },
        { match: { request: 3 }, reply: { text: '<tool_call>{"name": "read", "arguments": {"path": "notes.txt"' } },
        { match: { request: 4 }, reply: { text: "Done: the notes say hello." } },
      ],
    });
    try {
      textMode(s);
      s.ws.write("notes.txt", "hello from the notes\n");
      const result = await s.run(["run", "read the notes"]);
      assert.equal(result.code, 0, result.stderr);
      // A trailing comma is repaired (call.repair) and the call runs.
      assert.match(sentText(s, 2), /<tool_result name="read" call="textcall_1_1">\n[\s\S]*hello from the notes/);
      // Single quotes are not guessed at: an error the model can act on.
      assert.match(
        sentText(s, 3),
        /call="textcall_2_1" error="true">\nThe arguments of this read call are not valid JSON/,
      );
      // Cut off: the same.
      assert.match(
        sentText(s, 4),
        /call="textcall_3_1" error="true">\nThe arguments of this read call are not valid JSON/,
      );
      const { decisions } = s.latest();
      const repaired = expectDecision(decisions, "call.repair", "code");
      assert.match(JSON.stringify(repaired.reasons), /trailing comma/);
      const shims = decisions.filter((d) => d.seat === "call.shim" && d.holder === "code");
      assert.deepEqual(
        shims.map((d) => (d.answer as { format: string }).format),
        ["hermes", "hermes", "hermes"],
      );
      assert.equal(shims[2]?.reasons[0]?.rule, "broken");
    } finally {
      await s.close();
    }
  });

  it("a parsed call is gated like a native one: a write in read-only plan is refused", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { request: 1 },
            reply: {
              text: '<tool_call>{"name": "write", "arguments": {"path": "plan.md", "content": "x"}}</tool_call>',
            },
          },
          { match: { request: 2 }, reply: { text: "I cannot write in plan mode." } },
        ],
      },
      { config: { permission: { edit: "allow" } } },
    );
    try {
      textMode(s);
      const result = await s.run(["run", "--agent", "plan", "--trust-project", "write a plan file"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "plan.md")), false);
      assert.match(sentText(s, 2), /<tool_result name="write" call="textcall_1_1" error="true">/);
      const { decisions } = s.latest();
      const denied = expectDecision(decisions, "call.permission", "code", "deny");
      assert.equal(denied.subject?.call, "textcall_1_1");
    } finally {
      await s.close();
    }
  });

  it("a parsed shell call that needs approval is asked like a native one: with nobody to ask, not run", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: { text: '[TOOL_CALLS][{"name": "shell", "arguments": {"command": "touch made.txt"}}]' },
        },
        { match: { request: 2 }, reply: { text: "It needs your approval." } },
      ],
    });
    try {
      textMode(s);
      const result = await s.run(["run", "make the file"]);
      // As for a native call nobody could approve: the run ends with exit 3 (calls were denied).
      assert.equal(result.code, 3, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "made.txt")), false);
      assert.match(sentText(s, 2), /<tool_result name="shell" call="textcall_1_1" error="true">/);
      const { decisions } = s.latest();
      const shim = expectDecision(decisions, "call.shim", "code");
      assert.equal((shim.answer as { format: string }).format, "mistral");
      assert.ok(
        decisions.some(
          (d) => d.seat === "call.permission" && d.subject?.call === "textcall_1_1" && d.answer !== "allow",
        ),
        "judged by the permission seat, not allowed",
      );
    } finally {
      await s.close();
    }
  });

  it('detected: a model sent native tools that writes a call as text has it read (holder code); tools: "native" does not', async () => {
    const hermes = '<tool_call>{"name": "read", "arguments": {"path": "notes.txt"}}</tool_call>';
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: { text: hermes } },
        { match: { request: 2 }, reply: { text: "It says hello." } },
        { match: { request: 3 }, reply: { text: hermes } },
      ],
    });
    try {
      s.ws.write("notes.txt", "hello from the notes\n");
      const result = await s.run(["run", "read the notes"]);
      assert.equal(result.code, 0, result.stderr);
      assert.ok((s.server.request(1).normalized?.tools ?? []).includes("read"), "native tools were sent");
      assert.match(sentText(s, 2), /hello from the notes/);
      expectDecision(s.latest().decisions, "call.shim", "code", { mode: "detected" });

      textMode(s, "native");
      const again = await s.run(["run", "read the notes again"]);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(s.server.requests.length, 3, "the text was the answer: nothing was run");
      assert.ok(!s.latest().decisions.some((d) => d.seat === "call.shim"));
    } finally {
      await s.close();
    }
  });
});
