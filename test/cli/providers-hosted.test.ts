import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

/** Azure OpenAI and OpenRouter through the real binary, against the scripted model server. */
describe("hosted providers through the binary", () => {
  it("azure: the deployment as the model on /responses, the key in api-key (never Authorization), recorded with its source", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Hello from Azure." } }] });
    try {
      s.setUserConfig({
        model: "azure/my-deployment",
        provider: { azure: { type: "azure", baseURL: s.server.baseURL, apiKey: "{env:MY_AZURE_KEY}" } },
      });
      const run = await s.run(["run", "hi"], { env: { MY_AZURE_KEY: "az-secret-1" } });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Hello from Azure\./);
      const request = s.server.request(1);
      assert.equal(request.path, "/v1/responses");
      assert.equal(request.headers["api-key"], "az-secret-1");
      assert.equal(request.headers.authorization, undefined);
      assert.match(String(request.headers["user-agent"]), /ai-sdk\/azure\//);
      assert.equal((request.json as { model?: string }).model, "my-deployment");
      const select = expectDecision(s.latest().decisions, "model.select", "config", "azure/my-deployment");
      const credentials = select.reasons.find((r) => r.rule === "credentials")?.detail ?? "";
      assert.match(credentials, /^provider\.azure\.apiKey \{env:MY_AZURE_KEY\}/);
      assert.match(credentials, /requests go to http:\/\/127\.0\.0\.1:\d+\/v1 \(provider\.azure\.baseURL/);
      assert.ok(!JSON.stringify(select).includes("az-secret-1"));
    } finally {
      await s.close();
    }
  });

  it("azure: AZURE_API_KEY and AZURE_RESOURCE_NAME, read from the environment, are named by bosun models", async () => {
    const s = await startScenario({ rules: [] });
    try {
      // Azure is not built in (deployments are named per resource): the person's config names its type only.
      s.setUserConfig({ model: "azure/my-deployment", provider: { azure: { type: "azure" } } });
      const env = { AZURE_API_KEY: "az-env-secret", AZURE_RESOURCE_NAME: "my-resource" };
      const listed = await s.run(["models", "--json"], { env });
      assert.equal(listed.code, 0, listed.stderr);
      const data = JSON.parse(listed.stdout) as {
        selected: { model?: string };
        providers: Array<{
          provider: string;
          environment?: string[];
          credentials: { source: string };
          usable: boolean;
        }>;
      };
      assert.equal(data.selected.model, "azure/my-deployment");
      const azure = data.providers.find((p) => p.provider === "azure");
      assert.deepEqual(azure?.environment, ["AZURE_RESOURCE_NAME=my-resource"]);
      assert.equal(azure?.credentials.source, "environment variable AZURE_API_KEY");
      assert.equal(azure?.usable, true);
      assert.ok(!listed.stdout.includes("az-env-secret"));
    } finally {
      await s.close();
    }
  });

  it("openrouter: /chat/completions with a bearer key, the routed model id in the body", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Hello from OpenRouter." } }] });
    try {
      s.setUserConfig({
        model: "openrouter/anthropic/claude-sonnet-4.5",
        provider: { openrouter: { baseURL: s.server.baseURL } },
      });
      const run = await s.run(["run", "hi"], { env: { OPENROUTER_API_KEY: "or-secret-1" } });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Hello from OpenRouter\./);
      const request = s.server.request(1);
      assert.equal(request.path, "/v1/chat/completions");
      assert.equal(request.headers.authorization, "Bearer or-secret-1");
      assert.equal((request.json as { model?: string }).model, "anthropic/claude-sonnet-4.5");
      const select = expectDecision(
        s.latest().decisions,
        "model.select",
        "config",
        "openrouter/anthropic/claude-sonnet-4.5",
      );
      const credentials = select.reasons.find((r) => r.rule === "credentials")?.detail ?? "";
      assert.match(credentials, /^environment variable OPENROUTER_API_KEY/);
    } finally {
      await s.close();
    }
  });
});
