import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { startAcp } from "../support/acp-client.js";
import { startScenario } from "../support/scenario.js";

/** The kinds and texts of a session's updates, in order, for the ones the test looks at. */
const shown = (updates: readonly SessionNotification[]) =>
  updates
    .map((n) => n.update)
    .filter((u) => u.sessionUpdate === "agent_thought_chunk" || u.sessionUpdate === "agent_message_chunk")
    .map((u) => `${u.sessionUpdate}: ${"content" in u && u.content.type === "text" ? u.content.text : ""}`);

describe("bosun acp: the model's reasoning", () => {
  it("streams as agent_thought_chunk, apart from the answer, and is replayed so on session/load", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { request: 1 },
            reply: {
              thinking: [{ text: "The person wants a greeting.", signature: "sig-one" }],
              text: "Hello.",
            },
          },
        ],
      },
      { protocol: "anthropic" },
    );
    const scripted = s.server.configFor("anthropic").provider.scripted;
    s.setUserConfig({
      provider: {
        scripted: { ...scripted, models: { "test-model": { output: 32000, reasoning: { effort: "low" } } } },
      },
    });
    const editor = startAcp(s);
    let sessionId = "";
    try {
      await editor.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      sessionId = (await editor.agent.request(methods.agent.session.new, { cwd: s.ws.dir, mcpServers: [] })).sessionId;
      const answer = await editor.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "greet me" }],
      });
      assert.equal(answer.stopReason, "end_turn");
      const live = shown(editor.updates);
      // The thinking is a thought, never part of the message; it comes before the answer it led to.
      assert.ok(
        live.some((line) => /^agent_thought_chunk: .*greeting/.test(line)),
        JSON.stringify(live),
      );
      assert.ok(!live.some((line) => /^agent_message_chunk: .*greeting/.test(line)), JSON.stringify(live));
      const thought = live.findIndex((line) => line.startsWith("agent_thought_chunk"));
      const message = live.findIndex((line) => line.startsWith("agent_message_chunk"));
      assert.ok(thought >= 0 && message > thought, JSON.stringify(live));
      assert.equal(
        live
          .filter((l) => l.startsWith("agent_message_chunk"))
          .join("")
          .includes("Hello."),
        true,
      );
    } finally {
      assert.equal(await editor.close(), 0, editor.stderr());
    }

    // Loaded again: the history has the thought where it was, and no signature reaches the editor.
    const again = startAcp(s);
    try {
      await again.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      await again.agent.request(methods.agent.session.load, { sessionId, cwd: s.ws.dir, mcpServers: [] });
      assert.deepEqual(shown(again.updates), [
        "agent_thought_chunk: The person wants a greeting.",
        "agent_message_chunk: Hello.",
      ]);
      assert.doesNotMatch(JSON.stringify(again.updates), /sig-one/);
    } finally {
      assert.equal(await again.close(), 0, again.stderr());
      await s.close();
    }
  });
});
