import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { sessionChoices } from "./session-choices.js";

const config = configFrom({
  model: "local/coder",
  agent: { review: { model: "local/chat" }, docs: { read_only: true }, quick: { model: "local/coder" } },
  provider: {
    local: { type: "openai-compatible", baseURL: "http://127.0.0.1:9/v1", models: { coder: {}, chat: {}, big: {} } },
  },
});

describe("what the /model, /agent and /mode pickers offer (sessionChoices)", () => {
  it("models: config's, the agents', then every model of a provider that can be called, each once; the one in use marked", () => {
    const choices = sessionChoices("model", config, "local/chat", {});
    assert.deepEqual(
      choices.map((c) => [c.value, c.detail, c.current ?? false]),
      [
        ["local/coder", "config model", false],
        ["local/chat", "agent review's model", true],
        ["local/big", "local", false],
      ],
    );
  });

  it("a provider without credentials offers none of its models; the model in use is listed even when nothing names it", () => {
    const choices = sessionChoices("model", configFrom({}), "anthropic/claude-sonnet-4-5", {});
    assert.deepEqual(choices, [{ value: "anthropic/claude-sonnet-4-5", detail: "", current: true }]);
    const keyed = sessionChoices("model", configFrom({}), "x/y", { ANTHROPIC_API_KEY: "k" }).map((c) => c.value);
    assert.ok(keyed.some((v) => v.startsWith("anthropic/")));
    assert.ok(!keyed.some((v) => v.startsWith("openai/")));
  });

  it("agents: the built-in ones, then the configured; modes: all four, the default (approve) first", () => {
    assert.deepEqual(
      sessionChoices("agent", config, "docs").map((c) => [c.value, c.current ?? false]),
      [
        ["build", false],
        ["plan", false],
        ["review", false],
        ["docs", true],
        ["quick", false],
      ],
    );
    assert.equal(sessionChoices("agent", config, "docs")[3]?.detail, "read-only");
    assert.deepEqual(
      sessionChoices("mode", config, "smart").map((c) => `${c.value}${c.current ? " (now)" : ""}`),
      ["approve", "smart (now)", "auto", "chat"],
    );
  });
});
