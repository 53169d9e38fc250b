import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { NOTES_SUMMARY } from "../support/summary.js";

/** The summary request has no tools and a system prompt naming the sections. */
const summary = { match: { system: "## Relevant files" }, reply: { text: NOTES_SUMMARY } };
const readNotes = { toolCalls: [{ id: "r1", name: "read", arguments: { path: "notes.txt" } }] };

/**
 * The assumed limits (model/catalog.ts ASSUMED_LIMITS): 32,000 context, 4,096 output, so a model
 * nobody described compacts at (32000 - 4096) × 0.8 = 22323 tokens, not never.
 */
const ASSUMED_TRIGGER =
  /^22323 tokens = \(window 32000 assumed, the model is not in the catalog or config - output reserve 4096\) × threshold 0\.8$/;

describe("a model nobody described runs with assumed limits", () => {
  it("a built-in provider's unknown model: warned, the assumption on record, compacted at the assumed window", async () => {
    const s = await startScenario(
      {
        rules: [
          summary,
          // 23,000 measured input tokens: past the assumed window's limit, far below any real model's.
          { match: { request: 1 }, reply: { ...readNotes, usage: { input: 23_000, output: 10 } } },
          { match: { request: 3 }, reply: { text: "The notes say hello." } },
        ],
      },
      { protocol: "anthropic" },
    );
    try {
      s.setUserConfig({
        model: "anthropic/claude-next-9",
        provider: { anthropic: { baseURL: s.server.baseURL, apiKey: "test-key" } },
        compaction: { keep_tokens: 0 },
      });
      s.ws.write("notes.txt", "hello\n");
      const result = await s.run(["run", "read the notes"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        /anthropic\/claude-next-9 is not in bosun's catalog: it is sent as written, with assumed limits \(context 32000, output 4096 tokens, so compaction may start early\) and no price/,
      );

      const { decisions } = s.latest();
      const chosen = expectDecision(decisions, "model.select", "config", "anthropic/claude-next-9");
      assert.match(
        chosen.reasons.find((r) => r.rule === "model limits")?.detail ?? "",
        /^context 32000 \(assumed\), output 4096 \(assumed\): anthropic\/claude-next-9 is not in bosun's catalog.*warned when the run starts$/,
      );
      const trigger = expectDecision(decisions, "compaction.trigger", "config", "compact");
      assert.match(trigger.reasons.find((r) => r.rule === "limit")?.detail ?? "", ASSUMED_TRIGGER);
      expectDecision(decisions, "compaction.summary", "model");
      // Request 2 is the summary; request 3 goes on from it.
      assert.deepEqual(s.server.request(2).normalized?.tools, []);
      assert.match(s.server.request(3).normalized?.messages[0]?.text ?? "", /Summary of the conversation so far/);
    } finally {
      await s.close();
    }
  });

  it("a local server's undescribed model: no warning, the assumption recorded, and no assumed output cap sent", async () => {
    const s = await startScenario({
      rules: [
        summary,
        { match: { request: 1 }, reply: { ...readNotes, usage: { input: 23_000, output: 10 } } },
        { match: { request: 3 }, reply: { text: "The notes say hello." } },
      ],
    });
    try {
      s.setUserConfig({ compaction: { keep_tokens: 0 } });
      s.ws.write("notes.txt", "hello\n");
      const result = await s.run(["run", "read the notes"]);
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stderr, /not in bosun's catalog/, "a local server names its models freely");

      const { decisions } = s.latest();
      const chosen = expectDecision(decisions, "model.select", "config", "scripted/test-model");
      assert.match(
        chosen.reasons.find((r) => r.rule === "model limits")?.detail ?? "",
        /^context 32000 \(assumed\), output 4096 \(assumed\): scripted\/test-model is not in the catalog or config, so bosun assumed its limits/,
      );
      const trigger = expectDecision(decisions, "compaction.trigger", "config", "compact");
      assert.match(trigger.reasons.find((r) => r.rule === "limit")?.detail ?? "", ASSUMED_TRIGGER);
      // The assumed output is only the compaction reserve: no request carries it as a cap.
      for (const n of [1, 2, 3]) {
        const body = s.server.request(n).json as { max_tokens?: number; max_completion_tokens?: number };
        assert.equal(body.max_tokens, undefined, `request ${n}`);
        assert.equal(body.max_completion_tokens, undefined, `request ${n}`);
      }
    } finally {
      await s.close();
    }
  });

  it("declared limits replace the assumption: the same usage does not compact", async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: { ...readNotes, usage: { input: 23_000, output: 10 } } },
        { match: { request: 2 }, reply: { text: "The notes say hello." } },
      ],
    });
    try {
      const base = s.server.configFor("openai-compatible");
      s.setUserConfig({
        provider: {
          scripted: { ...base.provider.scripted, models: { "test-model": { context: 128_000, output: 8_000 } } },
        },
        compaction: { keep_tokens: 0 },
      });
      s.ws.write("notes.txt", "hello\n");
      const result = await s.run(["run", "read the notes"]);
      assert.equal(result.code, 0, result.stderr);
      const { decisions } = s.latest();
      const chosen = expectDecision(decisions, "model.select", "config", "scripted/test-model");
      assert.equal(chosen.reasons.find((r) => r.rule === "model limits")?.detail, "context 128000, output 8000");
      assert.ok(!decisions.some((d) => d.seat === "compaction.trigger" && d.answer === "compact"));
      assert.equal((s.server.request(1).json as { max_tokens?: number }).max_tokens, 8000, "a declared limit is sent");
      assert.equal(s.server.requests.length, 2);
    } finally {
      await s.close();
    }
  });
});
