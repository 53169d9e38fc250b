import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { createLanguageModel } from "./create.js";
import { resolveModel } from "./resolve.js";

/** The AI SDK model each provider type builds, without making a request. */
async function built(ref: string, content: Record<string, unknown>, env: NodeJS.ProcessEnv) {
  const resolution = resolveModel(ref, configFrom(content), env);
  assert.ok(resolution.ok, resolution.ok ? "" : resolution.problem);
  return (await createLanguageModel(resolution.model)) as { provider: string; modelId: string };
}

describe("createLanguageModel", () => {
  it("builds each provider type through its AI SDK package", async () => {
    const anthropic = await built("anthropic/claude-sonnet-4-5", {}, { ANTHROPIC_API_KEY: "k" });
    assert.equal(anthropic.provider, "anthropic.messages");
    assert.equal(anthropic.modelId, "claude-sonnet-4-5");
    assert.equal((await built("openai/gpt-5", {}, { OPENAI_API_KEY: "k" })).provider, "openai.responses");
    assert.equal(
      (await built("openai/gpt-5", { provider: { openai: { api: "chat" } } }, { OPENAI_API_KEY: "k" })).provider,
      "openai.chat",
    );
    assert.equal((await built("google/gemini-2.5-pro", {}, { GEMINI_API_KEY: "k" })).provider, "google.generative-ai");
    const local = await built(
      "local/qwen3-coder",
      { provider: { local: { type: "openai-compatible", baseURL: "http://127.0.0.1:11434/v1" } } },
      {},
    );
    assert.equal(local.provider, "local.chat");
    assert.equal(local.modelId, "qwen3-coder");
  });

  it("builds a session's model once per reference and limits; other limits or test timers get their own", async () => {
    const resolution = resolveModel(
      "local/qwen3-coder",
      configFrom({ provider: { local: { type: "openai-compatible", baseURL: "http://127.0.0.1:11434/v1" } } }),
      {},
    );
    assert.ok(resolution.ok);
    const limits = { timeoutMs: 1000, idleMs: 500 };
    const first = await createLanguageModel(resolution.model, limits);
    assert.equal(await createLanguageModel(resolution.model, { ...limits }), first);
    assert.notEqual(await createLanguageModel(resolution.model, { timeoutMs: 2000, idleMs: 500 }), first);
    const timers = { set: () => 0, clear: () => {} };
    assert.notEqual(await createLanguageModel(resolution.model, limits, timers), first);
    // Another resolution of the same reference (a new session) builds its own.
    const again = resolveModel(
      "local/qwen3-coder",
      configFrom({ provider: { local: { type: "openai-compatible", baseURL: "http://127.0.0.1:11434/v1" } } }),
      {},
    );
    assert.ok(again.ok);
    assert.notEqual(await createLanguageModel(again.model, limits), first);
  });
});
