import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { expectDecision } from "../../test/support/ledger.js";
import { loadConfig } from "../config/load.js";
import type { Answer, RecordedDecision } from "../contracts/decisions.js";
import { UsageError } from "../errors.js";
import { DEFAULT_AGENT, decideAgent } from "./select.js";

const asRecorded = ({ holder, answer, reasons }: Answer): RecordedDecision[] => [
  { seat: "agent.select", holder, answer, reasons, seq: 1, at: "" },
];

describe("decideAgent (agent.select)", () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("takes the built-in build agent by default (code)", () => {
    assert.equal(DEFAULT_AGENT, "build");
    const choice = decideAgent(undefined, configFrom({}));
    expectDecision(asRecorded(choice), "agent.select", "code", "build");
    assert.deepEqual(choice.agent, { name: "build" });
    assert.deepEqual(choice.reasons, [{ rule: "default agent", detail: "build", decisive: true }]);
  });

  it("takes build by default even when other agents are configured", () => {
    const choice = decideAgent(undefined, configFrom({ agent: { plan: { model: "a/b" } } }));
    assert.equal(choice.answer, "build");
    assert.equal(choice.holder, "code");
    assert.deepEqual(choice.agent, { name: "build" });
  });

  it("takes a known agent named by --agent as the person's choice", () => {
    const choice = decideAgent("build", configFrom({}));
    expectDecision(asRecorded(choice), "agent.select", "person", "build");
    assert.deepEqual(choice.reasons, [{ rule: "--agent flag", detail: "build", source: "--agent", decisive: true }]);
  });

  it("takes a custom command's agent for its turn, held by the command's file (config)", () => {
    const command = { name: "review", file: "/w/.bosun/commands/review.md", agent: "plan" };
    const choice = decideAgent("build", configFrom({}), command);
    expectDecision(asRecorded(choice), "agent.select", "config", "plan");
    assert.deepEqual(choice.reasons[0], {
      rule: "custom command /review agent",
      detail: "plan",
      source: "/w/.bosun/commands/review.md",
      decisive: true,
    });
    assert.deepEqual(choice.agent.readOnly, { holder: "code" });
    assert.throws(() => decideAgent(undefined, configFrom({}), { ...command, agent: "nope" }), /unknown agent "nope"/);
  });

  it("gives a configured agent its model and prompt, and names the file they came from", () => {
    const dir = mkdtempSync(join(tmpdir(), "bosun-agent-"));
    dirs.push(dir);
    const file = join(dir, "bosun.json");
    writeFileSync(
      file,
      JSON.stringify({ agent: { plan: { description: "Plans", model: "openai/gpt-x", prompt: "Only plan." } } }),
    );
    const config = loadConfig({ cwd: dir, env: { BOSUN_HOME: join(dir, "home") } });
    const choice = decideAgent("plan", config);
    expectDecision(asRecorded(choice), "agent.select", "person", "plan");
    // Plan is built in and read-only; config gives it a model and a prompt, not the right to edit.
    assert.deepEqual(choice.agent, {
      name: "plan",
      model: "openai/gpt-x",
      prompt: "Only plan.",
      description: "Plans",
      readOnly: { holder: "code" },
    });
    assert.deepEqual(choice.reasons, [
      { rule: "--agent flag", detail: "plan", source: "--agent", decisive: true },
      { rule: "agent settings", detail: "description, model, prompt", source: file },
      {
        rule: "read-only",
        detail: "plan may not edit files, run commands not proven read-only, or use unannotated MCP tools",
        source: "built-in",
      },
    ]);
  });

  it("gives an agent only the settings it has", () => {
    const config = configFrom({ agent: { fast: { model: "a/small" }, wordy: { prompt: "Explain." }, bare: {} } });
    assert.deepEqual(decideAgent("fast", config).agent, { name: "fast", model: "a/small" });
    assert.deepEqual(decideAgent("wordy", config).agent, { name: "wordy", prompt: "Explain." });
    assert.deepEqual(decideAgent("wordy", config).reasons[1]?.source, "BOSUN_CONFIG_CONTENT");
    const bare = decideAgent("bare", config);
    assert.deepEqual(bare.agent, { name: "bare" });
    assert.equal(bare.reasons.length, 1);
  });

  it("applies configured settings to build, whether chosen by default or by flag", () => {
    const config = configFrom({ agent: { build: { model: "a/b" } } });
    assert.deepEqual(decideAgent(undefined, config).agent, { name: "build", model: "a/b" });
    assert.deepEqual(decideAgent("build", config).agent, { name: "build", model: "a/b" });
    assert.equal(decideAgent(undefined, config).reasons[1]?.rule, "agent settings");
  });

  it("refuses an unknown agent with a usage error that lists the agents", () => {
    const config = configFrom({ agent: { plan: {}, review: { model: "a/b" } } });
    assert.throws(
      () => decideAgent("deploy", config),
      (error: unknown) => {
        assert.ok(error instanceof UsageError);
        assert.equal(error.exitCode, 2);
        assert.equal(
          error.message,
          'unknown agent "deploy"; agents: build, plan, review (define more under "agent" in bosun.json, or in .bosun/agents/<name>.md)',
        );
        return true;
      },
    );
    assert.throws(() => decideAgent("Plan", config), /unknown agent "Plan"; agents: build, plan, review/);
    assert.throws(() => decideAgent("", config), UsageError);
    assert.throws(() => decideAgent("constructor", config), UsageError);
    assert.throws(() => decideAgent("review", configFrom({})), /agents: build, plan \(/);
  });
});
