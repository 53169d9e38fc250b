import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { createLanguageModel } from "./create.js";
import { findProvider } from "./providers.js";
import type { ResolvedModel } from "./resolve.js";

const realFetch = globalThis.fetch;

/** The URL and headers the azure SDK forms for a real resource (no network: the fetch under bosun's is replaced). */
async function azureRequest(settings: Record<string, string>, env: NodeJS.ProcessEnv) {
  let seen: { url: string; headers: Headers } | undefined;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    seen = { url: String(input), headers: new Headers(init?.headers) };
    return new Response('{"error":{"message":"scripted"}}', { status: 400 });
  }) as typeof fetch;
  const provider = findProvider(
    "az",
    configFrom({ provider: { az: { type: "azure", apiKey: "k-1", ...settings } } }),
    env,
  );
  assert.ok(provider);
  const resolved = { ref: "az/dep-1", modelId: "dep-1", info: {}, known: false, provider } as ResolvedModel;
  const model = (await createLanguageModel(resolved)) as unknown as { doGenerate(o: unknown): Promise<unknown> };
  await model
    .doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })
    .catch(() => undefined);
  assert.ok(seen, "no request was made");
  return seen;
}

describe("azure's request URL, as the SDK forms it for a resource", () => {
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it("provider.<name>.resourceName and apiVersion: <resource>.openai.azure.com/openai/v1/responses?api-version=", async () => {
    const seen = await azureRequest({ resourceName: "myres", apiVersion: "2025-04-01-preview" }, {});
    assert.equal(seen.url, "https://myres.openai.azure.com/openai/v1/responses?api-version=2025-04-01-preview");
    assert.equal(seen.headers.get("api-key"), "k-1");
  });

  it("AZURE_RESOURCE_NAME from the environment when config names none; api-version v1 by default", async () => {
    const saved = process.env.AZURE_RESOURCE_NAME;
    process.env.AZURE_RESOURCE_NAME = "envres";
    try {
      const seen = await azureRequest({}, { AZURE_RESOURCE_NAME: "envres" });
      assert.equal(seen.url, "https://envres.openai.azure.com/openai/v1/responses?api-version=v1");
    } finally {
      if (saved === undefined) delete process.env.AZURE_RESOURCE_NAME;
      else process.env.AZURE_RESOURCE_NAME = saved;
    }
  });
});
