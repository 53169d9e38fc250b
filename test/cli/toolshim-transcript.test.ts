import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { methods } from "@agentclientprotocol/sdk";
import { startAcp } from "../support/acp-client.js";
import { expectDecision } from "../support/ledger.js";
import { checkedStream } from "../support/run-stream.js";
import { type Scenario, sentText, startScenario } from "../support/scenario.js";

/** Calls written as text: shown as calls, not as the model's prose; a native model writing them switches the turn to text. */

function textMode(s: Scenario): void {
  const scripted = s.server.configFor("openai-compatible").provider.scripted;
  s.setUserConfig({ provider: { scripted: { ...scripted, models: { "test-model": { tools: "text" } } } } });
}

const hermes = (path: string) => `<tool_call>{"name": "read", "arguments": {"path": "${path}"}}</tool_call>`;
const RAW = /tool_call>|TOOL_CALLS|"arguments"/;

describe("tool calls written as text, in the transcript", () => {
  it("the raw call text is not shown (plain stdout, --format json, an editor's replay); the call is; the journal keeps it", async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: { text: `Reading the notes.\n${hermes("notes.txt")}` } },
        { match: { request: 2 }, reply: { text: "The notes say hello." } },
        {
          match: { request: 3 },
          reply: { text: `[TOOL_CALLS][{"name": "read", "arguments": {"path": "notes.txt"}}]` },
        },
        { match: { request: 4 }, reply: { text: "Still hello." } },
      ],
    });
    try {
      textMode(s);
      s.ws.write("notes.txt", "hello from the notes\n");
      const plain = await s.run(["run", "what do the notes say?"]);
      assert.equal(plain.code, 0, plain.stderr);
      assert.match(plain.stdout, /Reading the notes\./);
      assert.match(plain.stdout, /The notes say hello\./);
      assert.doesNotMatch(plain.stdout, RAW);
      // The call is shown as a call (the progress line on stderr), not as text.
      assert.match(plain.stderr, /read/);

      const json = await s.run(["run", "--format", "json", "--continue", "again?"]);
      assert.equal(json.code, 0, json.stderr);
      const lines = checkedStream(json.stdout);
      const texts = lines.filter((l) => l.type === "text").map((l) => String(l.text));
      assert.doesNotMatch(texts.join(""), RAW);
      assert.match(texts.join(""), /Still hello/);
      assert.ok(
        lines.some((l) => l.type === "tool_call" && l.name === "read"),
        "the call is an event of its own",
      );

      // The journal keeps what the model wrote: it is replayed to the model, and in the ledger.
      const assistants = s.latest().events.filter((e) => e.type === "message.assistant");
      assert.match(JSON.stringify(assistants), /\[TOOL_CALLS\]/);
      assert.match(sentText(s, 4), /\[TOOL_CALLS\]/);
      const sessionId = s.latest().id;

      // An editor loading the session is shown the prose and the calls, not the calls' text.
      const editor = startAcp(s);
      try {
        await editor.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
        await editor.agent.request(methods.agent.session.load, { sessionId, cwd: s.ws.dir, mcpServers: [] });
        const updates = editor.updates.map((n) => n.update);
        const said = updates
          .filter((u) => u.sessionUpdate === "agent_message_chunk")
          .map((u) => ("content" in u && u.content.type === "text" ? u.content.text : ""));
        assert.ok(said.includes("Reading the notes."), JSON.stringify(said));
        assert.doesNotMatch(said.join("\n"), RAW);
        assert.equal(updates.filter((u) => u.sessionUpdate === "tool_call").length, 2);
      } finally {
        assert.equal(await editor.close(), 0, editor.stderr());
      }
    } finally {
      await s.close();
    }
  });

  it("detected: the rest of the turn is in text mode (tools in the prompt, none native; recorded, holder code); the next turn is native again", async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: { text: hermes("notes.txt") } },
        { match: { request: 2 }, reply: { text: hermes("more.txt") } },
        { match: { request: 3 }, reply: { text: "Both say hello." } },
        { match: { request: 4 }, reply: { text: "Hi." } },
      ],
    });
    try {
      s.ws.write("notes.txt", "hello from the notes\n");
      s.ws.write("more.txt", "hello from more\n");
      const result = await s.run(["run", "read both"]);
      assert.equal(result.code, 0, result.stderr);
      assert.ok((s.server.request(1).normalized?.tools ?? []).includes("read"), "native tools at first");
      // From the next step: no native tools, the tools described in the system prompt, calls read from text.
      const second = s.server.request(2);
      assert.deepEqual(second.normalized?.tools, []);
      assert.equal((second.json as { tools?: unknown }).tools, undefined);
      assert.match(second.normalized?.system ?? "", /<tool_call>\{"name": "<tool name>", "arguments"/);
      assert.match(sentText(s, 2), /<tool_result name="read" call="textcall_1_1">/);
      assert.match(sentText(s, 3), /<tool_result name="read" call="textcall_2_1">\n[\s\S]*hello from more/);
      assert.doesNotMatch(result.stdout, RAW);
      const { decisions } = s.latest();
      expectDecision(decisions, "call.shim", "code", { mode: "detected" });
      const switched = expectDecision(decisions, "call.shim", "code", { mode: "text", from_step: 2 });
      assert.equal(switched.reasons[0]?.rule, "switched");
      assert.equal(decisions.filter((d) => d.seat === "call.shim" && d.reasons[0]?.rule === "switched").length, 1);

      const next = await s.run(["run", "--continue", "hi"]);
      assert.equal(next.code, 0, next.stderr);
      assert.ok((s.server.request(4).normalized?.tools ?? []).includes("read"), "a new turn sends native tools again");
    } finally {
      await s.close();
    }
  });
});
