import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reasoningOptions } from "./reasoning.js";

describe("reasoningOptions", () => {
  it("Anthropic: an effort stands for a budget, fitted under a known output limit", () => {
    assert.deepEqual(reasoningOptions({ type: "anthropic" }, { effort: "high" }, undefined), {
      effort: "high",
      budget_tokens: 16384,
      options: { anthropic: { thinking: { type: "enabled", budgetTokens: 16384 } } },
    });
    const small = reasoningOptions({ type: "anthropic" }, { budget_tokens: 20000 }, 8192);
    assert.equal(small?.budget_tokens, 8192 - 1024);
    assert.equal(small?.maxOutputTokens, 1024);
  });

  it("OpenAI Responses: effort, a summary, and encrypted reasoning (store:false is always sent)", () => {
    assert.deepEqual(reasoningOptions({ type: "openai" }, { budget_tokens: 9000 }, undefined)?.options, {
      openai: {
        reasoningEffort: "high",
        reasoningSummary: "auto",
        forceReasoning: true,
        include: ["reasoning.encrypted_content"],
      },
    });
  });

  it("Google takes a budget and shows its thoughts; compatible servers an effort; nothing set, nothing sent", () => {
    assert.deepEqual(reasoningOptions({ type: "google" }, { effort: "low" }, undefined)?.options, {
      google: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
    });
    assert.deepEqual(reasoningOptions({ type: "openai-compatible" }, { effort: "minimal" }, undefined)?.options, {
      openaiCompatible: { reasoningEffort: "minimal" },
    });
    assert.equal(reasoningOptions({ type: "anthropic" }, {}, undefined), undefined);
    assert.equal(reasoningOptions({ type: "anthropic" }, undefined, undefined), undefined);
  });
});
