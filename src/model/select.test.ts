import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { expectDecision } from "../../test/support/ledger.js";
import { readDecisions } from "../seats/record.js";
import { SessionStore } from "../store/session-store.js";
import { decideModel, ModelSelectionError, NoModelError, noModelAdvice } from "./select.js";
import { lastSessionModel, selectSessionModel } from "./session-model.js";

const KEYS = { ANTHROPIC_API_KEY: "sk-ant-secret-1", OPENAI_API_KEY: "sk-openai-secret-2" };
const local = { local: { type: "openai-compatible", baseURL: "http://127.0.0.1:9/v1" } };
const flag = (value: string) => [{ flag: "--model", path: ["model"], value }];

describe("model.select precedence", () => {
  it("1. the --model flag wins over everything, held by the person", () => {
    const config = configFrom({ model: "openai/gpt-5", provider: local }, { flags: flag("local/qwen3-coder") });
    const decided = decideModel({
      config,
      sessionModel: "anthropic/claude-haiku-4-5",
      agent: { name: "build", model: "openai/gpt-4.1" },
      env: KEYS,
    });
    assert.equal(decided.holder, "person");
    assert.equal(decided.answer, "local/qwen3-coder");
    assert.deepEqual(
      decided.reasons.slice(0, 4).map((r) => [r.rule, r.detail, r.decisive ?? false]),
      [
        ["--model flag", "local/qwen3-coder", true],
        ["the resumed session's own model", "anthropic/claude-haiku-4-5 (outranked)", false],
        ['agent "build" model', "openai/gpt-4.1 (outranked)", false],
        ["config model (BOSUN_CONFIG_CONTENT layer)", "openai/gpt-5 (outranked)", false],
      ],
    );
  });

  it("2. the resumed session's own model comes next (code)", () => {
    const config = configFrom({ model: "openai/gpt-5" });
    const decided = decideModel({
      config,
      sessionModel: "anthropic/claude-haiku-4-5",
      agent: { name: "build", model: "openai/gpt-4.1" },
      env: KEYS,
    });
    assert.equal(decided.holder, "code");
    assert.equal(decided.answer, "anthropic/claude-haiku-4-5");
    assert.equal(decided.reasons[3]?.detail, "openai/gpt-5 (outranked)");
  });

  it("3. then the agent's configured model (config)", () => {
    const decided = decideModel({
      config: configFrom({ model: "openai/gpt-5" }),
      agent: { name: "review", model: "openai/gpt-4.1" },
      env: KEYS,
    });
    assert.equal(decided.holder, "config");
    assert.equal(decided.answer, "openai/gpt-4.1");
    assert.equal(decided.reasons.find((r) => r.decisive)?.rule, 'agent "review" model');
  });

  it("4. then config model, naming its layer and source", () => {
    const decided = decideModel({ config: configFrom({ model: "openai/gpt-5" }), env: KEYS });
    assert.equal(decided.holder, "config");
    assert.equal(decided.answer, "openai/gpt-5");
    const decisive = decided.reasons.find((r) => r.decisive);
    assert.equal(decisive?.rule, "config model (BOSUN_CONFIG_CONTENT layer)");
    assert.equal(decisive?.source, "BOSUN_CONFIG_CONTENT");
    const fromEnv = decideModel({
      config: configFrom({}, { env: { BOSUN_MODEL: "anthropic/claude-opus-4-1" } }),
      env: KEYS,
    });
    assert.equal(fromEnv.answer, "anthropic/claude-opus-4-1");
    assert.equal(fromEnv.reasons.find((r) => r.decisive)?.rule, "config model (env layer)");
  });

  it("5. then the first provider with credentials and its default model (code), listing the others", () => {
    const decided = decideModel({ config: configFrom({}), env: { OPENAI_API_KEY: "sk-openai-secret-2" } });
    assert.equal(decided.holder, "code");
    assert.equal(decided.answer, "openai/gpt-5");
    const providers = decided.reasons.filter((r) => r.rule.startsWith("provider "));
    assert.deepEqual(
      providers.map((r) => r.rule),
      ["provider anthropic", "provider openai"],
    );
    assert.match(providers[0]?.detail ?? "", /no credentials \(missing: set environment variable ANTHROPIC_API_KEY/);
    assert.match(
      providers[1]?.detail ?? "",
      /credentials from environment variable OPENAI_API_KEY; default model gpt-5/,
    );
  });

  it("allows a built-in provider's unknown model, with assumed limits and a warning", () => {
    const decided = decideModel({ config: configFrom({ model: "anthropic/claude-next-9" }), env: KEYS });
    assert.equal(decided.answer, "anthropic/claude-next-9");
    assert.equal(decided.resolved.known, false);
    assert.deepEqual(decided.resolved.info, { context: 32_000, output: 4_096 });
    assert.deepEqual(decided.resolved.assumed, ["context", "output"]);
    assert.match(decided.resolved.warning ?? "", /^anthropic\/claude-next-9 is not in bosun's catalog/);
    assert.match(decided.resolved.warning ?? "", /assumed limits \(context 32000, output 4096 tokens/);
    assert.equal(
      decided.reasons.at(-1)?.detail,
      `context 32000 (assumed), output 4096 (assumed): ${decided.resolved.warning}; warned when the run starts`,
    );
    const known = decideModel({ config: configFrom({ model: "anthropic/claude-sonnet-4-5" }), env: KEYS });
    assert.equal(known.reasons.at(-1)?.detail, "context 200000, output 64000");
    assert.equal(known.resolved.assumed, undefined);
    assert.deepEqual(known.resolved.info.price, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
  });

  it("records assumed limits for a local server's undescribed model, without a warning", () => {
    const decided = decideModel({ config: configFrom({ model: "local/qwen3-coder", provider: local }), env: {} });
    assert.equal(decided.resolved.warning, undefined);
    assert.deepEqual(decided.resolved.info, { context: 32_000, output: 4_096 });
    assert.match(
      decided.reasons.at(-1)?.detail ?? "",
      /^context 32000 \(assumed\), output 4096 \(assumed\): .*bosun assumed its limits/,
    );
  });

  it("config limits win over assumed ones and over the catalog's", () => {
    const partial = decideModel({
      config: configFrom({
        model: "local/qwen3-coder",
        provider: { local: { ...local.local, models: { "qwen3-coder": { context: 131072 } } } },
      }),
      env: {},
    });
    assert.deepEqual(partial.resolved.info, { context: 131072, output: 4_096 });
    assert.deepEqual(partial.resolved.assumed, ["output"]);
    const over = decideModel({
      config: configFrom({
        model: "anthropic/claude-sonnet-4-5",
        provider: { anthropic: { models: { "claude-sonnet-4-5": { context: 1_000_000 } } } },
      }),
      env: KEYS,
    });
    assert.equal(over.resolved.info.context, 1_000_000);
    assert.equal(over.resolved.info.output, 64_000);
  });

  it("takes limits from config over the catalog", () => {
    const config = configFrom({
      model: "local/qwen3-coder",
      provider: { local: { ...local.local, models: { "qwen3-coder": { context: 32768, output: 8192 } } } },
    });
    const decided = decideModel({ config, env: {} });
    assert.deepEqual(decided.resolved.info, { context: 32768, output: 8192 });
    assert.equal(decided.resolved.provider.credentials.source, "none needed");
  });
});

describe("model.select never falls back silently", () => {
  it("a flag model with a missing key is an error naming the chain and the fix, even when others would work", () => {
    const config = configFrom({ model: "openai/gpt-5" }, { flags: flag("anthropic/claude-sonnet-4-5") });
    assert.throws(
      () => decideModel({ config, env: { OPENAI_API_KEY: "sk-openai-secret-2" } }),
      (error: Error) => {
        assert.ok(error instanceof ModelSelectionError);
        assert.equal(error.exitCode, 2);
        assert.match(
          error.message,
          /model anthropic\/claude-sonnet-4-5 \(chosen by --model flag\) cannot be used: provider "anthropic" has no API key/,
        );
        assert.match(error.message, /fix: set environment variable ANTHROPIC_API_KEY or provider\.anthropic\.apiKey/);
        assert.match(error.message, /\* --model flag: anthropic\/claude-sonnet-4-5/);
        assert.match(
          error.message,
          /- config model \(BOSUN_CONFIG_CONTENT layer\): openai\/gpt-5 \(outranked\) \(BOSUN_CONFIG_CONTENT:1\)/,
        );
        assert.ok(!error.message.includes("sk-openai-secret-2"));
        return true;
      },
    );
  });

  it("an unknown provider is an error listing the known ones", () => {
    assert.throws(
      () => decideModel({ config: configFrom({ model: "nope/x" }), env: KEYS }),
      /unknown provider "nope".*\nfix: use one of anthropic, openai, google/,
    );
  });

  it("a configured provider that lists its models refuses a misspelled id, naming its models and the nearest", () => {
    const provider = { local: { ...local.local, models: { coder: {}, "coder-large": {}, chat: {} } } };
    assert.throws(
      () => decideModel({ config: configFrom({ provider }, { flags: flag("local/codr") }), env: KEYS }),
      (error: unknown) =>
        error instanceof ModelSelectionError &&
        error.exitCode === 2 &&
        error.message.startsWith(
          "model local/codr (chosen by --model flag) cannot be used: provider local has no model codr; its models: coder, coder-large, chat (did you mean coder?).\n" +
            'fix: use local/coder, add provider.local.models["codr"], or set provider.local.any_model: true.',
        ),
    );
  });

  it("a provider that declares any_model, or lists no models, takes any id: limits assumed, no warning", () => {
    const open = { local: { ...local.local, models: { coder: {} }, any_model: true } };
    const decided = decideModel({ config: configFrom({ provider: open }, { flags: flag("local/codr") }), env: KEYS });
    assert.equal(decided.answer, "local/codr");
    assert.equal(decided.resolved.warning, undefined);
    assert.match(
      decided.reasons.at(-1)?.detail ?? "",
      /bosun assumed its limits \(provider local accepts any model id\)/,
    );
    const bare = decideModel({ config: configFrom({ provider: local }, { flags: flag("local/anything") }), env: KEYS });
    assert.equal(bare.answer, "local/anything");
    assert.equal(bare.resolved.warning, undefined);
  });

  it("a malformed reference is an error", () => {
    assert.throws(
      () => decideModel({ config: configFrom({ model: "gpt-5" }), env: KEYS }),
      /"gpt-5" is not a model reference/,
    );
  });

  it("an openai-compatible provider without baseURL is an error", () => {
    const config = configFrom({ model: "lm/x", provider: { lm: { type: "openai-compatible" } } });
    assert.throws(
      () => decideModel({ config, env: {} }),
      /openai-compatible but has no baseURL: set provider\.lm\.baseURL/,
    );
  });

  it("no model and no credentials anywhere is an error saying what to set", () => {
    assert.throws(
      () => decideModel({ config: configFrom({}), env: {} }),
      (error: Error) => {
        // Its own class: the interactive session stays open for it and says what to set up.
        assert.ok(error instanceof NoModelError);
        assert.match(error.message, /no model is configured and no provider has credentials/);
        assert.match(error.message, /fix: set ANTHROPIC_API_KEY or OPENAI_API_KEY/);
        return true;
      },
    );
    // Another failure to choose is not one: a chosen model that cannot be used.
    assert.throws(
      () => decideModel({ config: configFrom({ model: "anthropic/claude-sonnet-4-5" }), env: {} }),
      (error: Error) => error instanceof ModelSelectionError && !(error instanceof NoModelError),
    );
    const tui = noModelAdvice("tui", { BOSUN_HOME: "/home/me/.bosun" });
    assert.match(tui, /ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY/);
    // Where the provider goes, and the JSON whole on a line of its own, so it can be copied.
    assert.match(tui, /as a provider in \/home\/me\/\.bosun\/bosun\.json:\n/);
    const json = tui.split("\n").find((line) => line.trim().startsWith("{")) ?? "";
    assert.deepEqual(JSON.parse(json), {
      provider: { local: { type: "openai-compatible", baseURL: "http://127.0.0.1:11434/v1" } },
    });
    assert.ok(json.length <= 100, `fits 100 columns: ${json.length}`);
    assert.match(noModelAdvice("cli", { XDG_CONFIG_HOME: "/cfg" }), /its provider in \/cfg\/bosun\/bosun\.json/);
    assert.match(tui, /bosun doctor/);
    assert.match(tui, /\/help lists the commands; \/exit or Ctrl-C quits/);
  });

  it("in the interactive session, the person's choice that cannot be used is named /model, not the flag", () => {
    const config = configFrom({}, { flags: flag("anthropic/claude-sonnet-4-5") });
    assert.throws(
      () => decideModel({ config, env: {}, face: "tui" }),
      /model anthropic\/claude-sonnet-4-5 \(chosen by \/model\) cannot be used/,
    );
    assert.throws(
      () => decideModel({ config, env: {} }),
      /model anthropic\/claude-sonnet-4-5 \(chosen by --model flag\) cannot be used/,
    );
  });

  it("an unresolved {env:} key reports the reference, not a silent other key", () => {
    const config = configFrom({
      model: "anthropic/claude-sonnet-4-5",
      provider: { anthropic: { apiKey: "{env:MY_ANTHROPIC_KEY}" } },
    });
    assert.throws(
      () => decideModel({ config, env: {} }),
      /\{env:MY_ANTHROPIC_KEY\}: environment variable MY_ANTHROPIC_KEY is not set/,
    );
  });
});

describe("credentials", () => {
  it("a configured key that does not resolve is missing, even when the usual variable is set", () => {
    const config = configFrom({
      model: "anthropic/claude-sonnet-4-5",
      provider: { anthropic: { apiKey: "{env:WORK_ANTHROPIC_KEY}" } },
    });
    assert.throws(
      () => decideModel({ config, env: { ANTHROPIC_API_KEY: "sk-personal" } }),
      /has no API key\.\nfix: provider\.anthropic\.apiKey \{env:WORK_ANTHROPIC_KEY\}: environment variable WORK_ANTHROPIC_KEY is not set/,
    );
  });

  it("records where the key came from, never the key", () => {
    const decided = decideModel({ config: configFrom({ model: "openai/gpt-5" }), env: KEYS });
    const reason = decided.reasons.find((r) => r.rule === "credentials");
    assert.equal(reason?.detail, "environment variable OPENAI_API_KEY");
    assert.ok(!JSON.stringify(decided.reasons).includes("sk-openai-secret-2"));
  });
});

describe("model.select in the ledger", () => {
  let dir: string;
  let store: SessionStore;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "bosun-select-"));
    store = SessionStore.open(join(dir, "bosun.db"));
  });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("records the answer, holder and full chain, and a resumed session keeps its model", () => {
    const session = store.create({ directory: "/w" });
    const first = selectSessionModel(store, session, { config: configFrom({ model: "openai/gpt-5" }), env: KEYS });
    assert.equal(first.ref, "openai/gpt-5");
    // Config changes later; the session keeps the model it ran with.
    const again = selectSessionModel(store, session, { config: configFrom({ model: "openai/gpt-4.1" }), env: KEYS });
    assert.equal(again.ref, "openai/gpt-5");
    assert.equal(lastSessionModel(store, session.id), "openai/gpt-5");
    const decisions = readDecisions(store, session.id).filter((d) => d.seat === "model.select");
    expectDecision(decisions, "model.select", "config", "openai/gpt-5");
    expectDecision(decisions, "model.select", "code", "openai/gpt-5");
    assert.deepEqual(
      decisions.map((d) => [d.holder, d.answer]),
      [
        ["config", "openai/gpt-5"],
        ["code", "openai/gpt-5"],
      ],
    );
    assert.equal(decisions[1]?.reasons.find((r) => r.decisive)?.rule, "the resumed session's own model");
    assert.equal(decisions[1]?.reasons[3]?.detail, "openai/gpt-4.1 (outranked)");
  });

  it("a custom command's model holds for its turn only: the session goes back to its own model after", () => {
    const session = store.create({ directory: "/w" });
    const config = configFrom({ model: "openai/gpt-5" }, { flags: flag("openai/gpt-4.1") });
    selectSessionModel(store, session, { config: configFrom({ model: "openai/gpt-5" }), env: KEYS });
    const command = { name: "review", file: "/w/.bosun/commands/review.md", model: "anthropic/claude-haiku-4-5" };
    const forCommand = selectSessionModel(store, session, { config, command, env: KEYS });
    assert.equal(
      forCommand.ref,
      "anthropic/claude-haiku-4-5",
      "over the --model flag too: the command is later and narrower",
    );
    const recorded = readDecisions(store, session.id).filter((d) => d.seat === "model.select");
    const last = recorded.at(-1);
    assert.deepEqual(last?.subject, { command: "review" });
    expectDecision([last as (typeof recorded)[number]], "model.select", "config", "anthropic/claude-haiku-4-5");
    assert.deepEqual(
      last?.reasons.find((r) => r.decisive),
      {
        rule: "custom command /review model",
        detail: "anthropic/claude-haiku-4-5",
        source: "/w/.bosun/commands/review.md",
        decisive: true,
      },
    );
    assert.equal(lastSessionModel(store, session.id), "openai/gpt-5");
    const after = selectSessionModel(store, session, { config: configFrom({}), env: KEYS });
    assert.equal(after.ref, "openai/gpt-5");
  });

  it("records nothing when the model cannot be used", () => {
    const session = store.create({ directory: "/w" });
    assert.throws(() => selectSessionModel(store, session, { config: configFrom({ model: "nope/x" }), env: KEYS }));
    assert.equal(readDecisions(store, session.id).length, 0);
  });
});
