import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { createWorkspace, type RunResult, type Workspace } from "../support/workspace.js";

const SECRETS = { ANTHROPIC_API_KEY: "sk-ant-models-test-111", LOCAL_KEY: "sk-local-models-test-222" };
const LITERAL = "sk-literal-models-test-333";

function assertNoSecrets(result: RunResult): void {
  for (const secret of [...Object.values(SECRETS), LITERAL]) {
    assert.ok(!result.stdout.includes(secret) && !result.stderr.includes(secret), `secret ${secret} printed`);
  }
}

interface ModelsJson {
  selected: { model?: string; holder?: string; rule?: string; error?: string };
  providers: Array<{
    provider: string;
    type: string | null;
    usable: boolean;
    credentials: { present: boolean; needed: boolean; source: string };
    defaultModel: string | null;
    models: Array<{ id: string; context?: number; output?: number }>;
  }>;
}

describe("bosun models", () => {
  let ws: Workspace;
  before(() => {
    ws = createWorkspace();
    // The person's own config: a repository's provider endpoints and keys are left out of
    // `bosun models` until trusted, as they are of a run.
    writeFileSync(
      join(ws.home, "bosun.json"),
      JSON.stringify({
        provider: {
          local: {
            type: "openai-compatible",
            baseURL: "http://127.0.0.1:11434/v1",
            apiKey: "{env:LOCAL_KEY}",
            models: { "qwen3-coder": { context: 32768, output: 8192, tools: true, images: false } },
          },
          work: { type: "openai", apiKey: LITERAL },
        },
      }),
    );
  });
  after(() => ws.cleanup());

  it("lists providers, models, limits and where credentials come from, never the keys", async () => {
    const result = await ws.run(["models", "--json"], { env: SECRETS });
    assert.equal(result.code, 0, result.stderr);
    assertNoSecrets(result);
    const data = JSON.parse(result.stdout) as ModelsJson;
    assert.deepEqual(
      data.providers.map((p) => [p.provider, p.type, p.usable]),
      [
        ["local", "openai-compatible", true],
        ["work", "openai", true],
        ["anthropic", "anthropic", true],
        ["openai", "openai", false],
        ["google", "google", false],
        ["openrouter", "openrouter", false],
        ["bedrock", "bedrock", false],
        ["vertex", "vertex", false],
      ],
    );
    const local = data.providers[0];
    assert.match(local?.credentials.source ?? "", /^provider\.local\.apiKey \{env:LOCAL_KEY\} \(.*bosun\.json:1\)$/);
    assert.deepEqual(local?.models, [{ id: "qwen3-coder", context: 32768, output: 8192, tools: true, images: false }]);
    assert.equal(data.providers[2]?.credentials.source, "environment variable ANTHROPIC_API_KEY");
    assert.match(data.providers[3]?.credentials.source ?? "", /^missing: set environment variable OPENAI_API_KEY/);
    // Nothing chose a model, so the first usable provider with a default model answers.
    assert.deepEqual(data.selected, { model: "local/qwen3-coder", holder: "code", rule: "provider local" });
  });

  it("prints a readable listing with the selection first", async () => {
    const result = await ws.run(["models", "-m", "anthropic/claude-haiku-4-5"], { env: SECRETS });
    assert.equal(result.code, 0, result.stderr);
    assertNoSecrets(result);
    const lines = result.stdout.split("\n");
    assert.equal(lines[0], "selected: anthropic/claude-haiku-4-5 (person: --model flag)");
    assert.ok(
      lines.some((l) =>
        /^local \(openai-compatible, http:\/\/127\.0\.0\.1:11434\/v1 from provider\.local\.baseURL \(.*bosun\.json:1\)\) — ready: provider\.local\.apiKey \{env:LOCAL_KEY\}/.test(
          l,
        ),
      ),
    );
    assert.match(
      lines[1] ?? "",
      /^catalog of \d{4}-\d{2}-\d{2}; a model not listed runs with assumed limits \(context 32,000, output 4,096\) and no price$/,
    );
    // Columns: context, output, tools, images, reasoning, price in/out, cache read/write; "?" where nobody said.
    assert.ok(lines.some((l) => /^\s+qwen3-coder \(default\)\s+32,768\s+8,192\s+yes\s+no\s+\?\s+\?\s+\?$/.test(l)));
    assert.ok(
      lines.some((l) =>
        /^\s+eu\.anthropic\.claude-sonnet-4-5-20250929-v1:0\s+200,000\s+64,000\s+yes\s+yes\s+yes\s+3\.3 \/ 16\.5\s+0\.33 \/ 4\.125$/.test(
          l,
        ),
      ),
      "bedrock's models from the catalog, with cache prices",
    );
    assert.ok(
      lines.some((l) => /^openai \(openai\) — no key: missing: set environment variable OPENAI_API_KEY/.test(l)),
    );
  });

  it("says why nothing can be selected instead of picking another model", async () => {
    const result = await ws.run(["models", "--json", "-m", "openai/gpt-5"], { env: SECRETS });
    assert.equal(result.code, 0);
    const data = JSON.parse(result.stdout) as ModelsJson;
    assert.equal(data.selected.model, undefined);
    assert.match(
      data.selected.error ?? "",
      /model openai\/gpt-5 \(chosen by --model flag\) cannot be used: provider "openai" has no API key/,
    );
  });

  it("a provider of a service type reads its service's catalog whatever its name; the catalog's date and the assumed limits", async () => {
    const own = createWorkspace();
    try {
      // The person's own config: a repository's provider type waits for trust, in a run and here.
      writeFileSync(
        join(own.home, "bosun.json"),
        JSON.stringify({ provider: { "bedrock-eu": { type: "bedrock", region: "eu-central-1" } } }),
      );
      const env = { AWS_ACCESS_KEY_ID: "AKIAMODELSTEST", AWS_SECRET_ACCESS_KEY: "models-test-secret" };
      const id = "eu.anthropic.claude-sonnet-4-5-20250929-v1:0";
      const result = await own.run(["models", "--json", "-m", `bedrock-eu/${id}`], { env });
      assert.equal(result.code, 0, result.stderr);
      assert.ok(!result.stdout.includes("models-test-secret"));
      const data = JSON.parse(result.stdout) as ModelsJson & {
        catalog: { updated: string };
        assumedLimits: { context: number; output: number };
      };
      assert.match(data.catalog.updated, /^\d{4}-\d{2}-\d{2}$/);
      assert.deepEqual(data.assumedLimits, { context: 32000, output: 4096 });
      assert.deepEqual(data.selected, { model: `bedrock-eu/${id}`, holder: "person", rule: "--model flag" });
      const listed = data.providers.find((p) => p.provider === "bedrock-eu");
      const model = listed?.models.find((m) => m.id === id) as Record<string, unknown> | undefined;
      assert.deepEqual(
        [model?.context, model?.output, model?.tools, model?.thinks, model?.price],
        [200000, 64000, true, true, { input: 3.3, output: 16.5, cacheRead: 0.33, cacheWrite: 4.125 }],
      );
    } finally {
      own.cleanup();
    }
  });
});

describe("a base URL the provider's SDK would read from the environment", () => {
  it("ANTHROPIC_BASE_URL is where requests go, said by bosun models and recorded in model.select", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Reached through the variable." } }] });
    try {
      s.setUserConfig({ model: "anthropic/claude-haiku-4-5" });
      const env = { ANTHROPIC_API_KEY: "sk-ant-env-test", ANTHROPIC_BASE_URL: s.server.baseURL };
      const run = await s.run(["run", "hello"], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Reached through the variable\./);
      const select = expectDecision(s.latest().decisions, "model.select", "config", "anthropic/claude-haiku-4-5");
      const credentials = select.reasons.find((r) => r.rule === "credentials")?.detail ?? "";
      assert.match(
        credentials,
        /requests go to http:\/\/127\.0\.0\.1:\d+\/v1 \(environment variable ANTHROPIC_BASE_URL\)/,
      );
      const listed = await s.run(["models"], { env });
      assert.match(
        listed.stdout,
        /^anthropic \(anthropic, http:\/\/127\.0\.0\.1:\d+\/v1 from environment variable ANTHROPIC_BASE_URL\)/m,
      );
      assert.ok(!listed.stdout.includes("sk-ant-env-test"));
    } finally {
      await s.close();
    }
  });
});
