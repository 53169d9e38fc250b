import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import type { ScriptedProtocol } from "../support/model-server.js";
import { checkedStream } from "../support/run-stream.js";
import { startScenario } from "../support/scenario.js";

/** Thinks, reads a file, then answers: the thinking must go back with the call it led to. */
const script = {
  rules: [
    {
      match: { request: 1 },
      reply: {
        thinking: [{ text: "I should read a.txt first.", signature: "sig-one", encrypted: "enc-one" }],
        reasoningTokens: 7,
        toolCalls: [{ id: "r1", name: "read", arguments: { path: "a.txt" } }],
      },
    },
    { reply: { text: "Done." } },
  ],
};

async function withReasoning(protocol: ScriptedProtocol, reasoning: Record<string, unknown>, rules = script) {
  const s = await startScenario(rules, { protocol });
  const scripted = s.server.configFor(protocol).provider.scripted;
  s.setUserConfig({ provider: { scripted: { ...scripted, models: { "test-model": { output: 32000, reasoning } } } } });
  s.ws.write("a.txt", "a\n");
  return s;
}

describe("reasoning", () => {
  it("Anthropic: a thinking budget is sent, and the signed thinking goes back before the tool use", async () => {
    const rules = structuredClone(script);
    const first = rules.rules[0] as unknown as { reply: { thinking: unknown[] } };
    first.reply.thinking.push({ redacted: "opaque-data" });
    const s = await withReasoning("anthropic", { effort: "medium" }, rules);
    try {
      const run = await s.run(["run", "--format", "json", "read it"]);
      assert.equal(run.code, 0, run.stderr);
      const first = s.server.request(1).json as { thinking?: unknown; max_tokens?: number };
      assert.deepEqual(first.thinking, { type: "enabled", budget_tokens: 8192 });
      // The budget counts inside max_tokens: the model's 32000 is the whole, not 32000 more.
      assert.equal(first.max_tokens, 32000);
      const second = s.server.request(2).json as { messages: Array<{ role: string; content: unknown }> };
      const assistant = second.messages.find((m) => m.role === "assistant");
      const content = assistant?.content as Array<Record<string, unknown>>;
      assert.deepEqual(content[0], { type: "thinking", thinking: "I should read a.txt first.", signature: "sig-one" });
      assert.deepEqual(content[1], { type: "redacted_thinking", data: "opaque-data" });
      assert.equal(content[2]?.type, "tool_use");
      // Shown on the stream as reasoning, kept with the assistant message.
      // Each line checked against schema/run-stream.v1.json.
      const lines = checkedStream(run.stdout);
      assert.ok(lines.some((line) => line.type === "reasoning" && String(line.text).includes("read")));
      const decision = expectDecision(s.latest().decisions, "model.options", "config");
      assert.deepEqual(decision.answer, {
        reasoning: { effort: "medium", budget_tokens: 8192 },
        sent: { anthropic: { thinking: { type: "enabled", budgetTokens: 8192 } } },
      });
      assert.equal(decision.reasons[0]?.key, "provider.scripted.models.test-model.reasoning");
      assert.match(decision.reasons[0]?.source ?? "", /bosun\.json:\d+/);
      // Once a session: the second step sent the same, and recorded nothing.
      assert.equal(s.latest().decisions.filter((d) => d.seat === "model.options").length, 1);
    } finally {
      await s.close();
    }
  });

  it("OpenAI Responses: effort with store:false, and the encrypted reasoning item sent back", async () => {
    const s = await withReasoning("openai", { effort: "high" });
    try {
      const run = await s.run(["run", "read it"]);
      assert.equal(run.code, 0, run.stderr);
      const first = s.server.request(1).json as Record<string, unknown>;
      assert.equal(first.store, false);
      assert.deepEqual(first.reasoning, { effort: "high", summary: "auto" });
      assert.deepEqual(first.include, ["reasoning.encrypted_content"]);
      const input = (s.server.request(2).json as { input: Array<Record<string, unknown>> }).input;
      const item = input.find((entry) => entry.type === "reasoning");
      assert.ok(item, JSON.stringify(input));
      assert.equal(item.encrypted_content, "enc-one");
      assert.deepEqual(item.summary, [{ type: "summary_text", text: "I should read a.txt first." }]);
      const usage = s.latest().events.find((e) => e.type === "model.usage")?.data as { reasoning?: number };
      assert.equal(usage?.reasoning, 7);
    } finally {
      await s.close();
    }
  });

  it("openai-compatible: the effort is sent as reasoning_effort, the agent's over its model's; none configured is recorded as code", async () => {
    const s = await withReasoning(
      "openai-compatible",
      { budget_tokens: 2048 },
      { rules: [{ reply: { text: "Done." } }] },
    );
    try {
      const run = await s.run(["run", "hi"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal((s.server.request(1).json as Record<string, unknown>).reasoning_effort, "low");
      // The agent's setting outranks the model's, and a change is recorded again. Written in the
      // repository's bosun.json it spends the person's money: it applies once trusted.
      s.ws.write("bosun.json", JSON.stringify({ agent: { build: { reasoning: { effort: "high" } } } }));
      const again = await s.run(["run", "-c", "--trust-project", "hi again"]);
      assert.equal(again.code, 0, again.stderr);
      assert.equal((s.server.request(2).json as Record<string, unknown>).reasoning_effort, "high");
      const options = s.latest().decisions.filter((d) => d.seat === "model.options");
      assert.equal(options.length, 2);
      assert.equal(options[1]?.reasons[0]?.key, "agent.build.reasoning");
    } finally {
      await s.close();
    }
    const none = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      assert.equal((await none.run(["run", "hi"])).code, 0);
      expectDecision(none.latest().decisions, "model.options", "code", { reasoning: "none" });
      assert.equal((none.server.request(1).json as Record<string, unknown>).reasoning_effort, undefined);
    } finally {
      await none.close();
    }
  });

  it("a bad reasoning value: exit 2 naming the file and key", async () => {
    const s = await startScenario(
      { rules: [{ reply: { text: "Done." } }] },
      {
        config: { agent: { build: { reasoning: { effort: "extreme" } } } },
      },
    );
    try {
      const run = await s.run(["run", "hi"]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /bosun\.json/);
      assert.match(run.stderr, /agent\.build\.reasoning\.effort/);
      assert.doesNotMatch(run.stderr, /\n\s+at /);
    } finally {
      await s.close();
    }
  });
});
