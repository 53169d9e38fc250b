import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { BUILTIN_PROVIDERS, CATALOG_DATE, catalogFor, catalogModels, toModelInfo } from "./catalog.js";
import { CatalogDataSchema } from "./catalog-schema.js";
import { toolTermsOf } from "./native-search.js";
import { findProvider } from "./providers.js";
import { resolveModel } from "./resolve.js";
import { toolModeOf } from "./tool-mode.js";
import { costOf } from "./usage.js";

const file = new URL("./catalog-data.json", import.meta.url);

describe("the model catalog data file", () => {
  it("passes the schema, with a date and a source", () => {
    const data = CatalogDataSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    assert.match(data.updated, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(CATALOG_DATE, data.updated);
    assert.ok(data.source.length > 0);
  });

  it("covers every built-in provider and its default model, with limits and prices", () => {
    for (const [name, provider] of Object.entries(BUILTIN_PROVIDERS)) {
      const info = provider.models[provider.defaultModel];
      assert.ok(info, `${name}'s default model ${provider.defaultModel} is in the catalog`);
      assert.ok(info.context && info.output && info.price, `${name}/${provider.defaultModel} has limits and prices`);
    }
    for (const id of [
      "claude-opus-4-5",
      "claude-haiku-4-5",
      "gpt-5-codex",
      "gpt-4.1-mini",
      "o3",
      "gemini-2.5-flash-lite",
    ]) {
      const found = Object.values(BUILTIN_PROVIDERS).some((p) => p.models[id] !== undefined);
      assert.ok(found, `${id} is in the catalog`);
    }
  });

  it("gives a catalog model its limits, capabilities and cache prices", () => {
    const sonnet = catalogModels("anthropic")["claude-sonnet-4-5"];
    assert.equal(sonnet?.context, 200_000);
    assert.equal(sonnet?.output, 64_000);
    assert.equal(sonnet?.tools, true);
    assert.equal(sonnet?.images, true);
    assert.equal(sonnet?.thinks, true);
    assert.deepEqual(sonnet?.price, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    // The cost of a request uses the cache prices: 1M read from cache, 1M written, 1M plain, 1M out.
    const cost = costOf({ input: 3_000_000, output: 1_000_000, cacheRead: 1_000_000, cacheWrite: 1_000_000 }, sonnet);
    assert.equal(cost?.toFixed(2), (3 + 15 + 0.3 + 3.75).toFixed(2));
  });

  it("tolerates providers it does not know, either way", () => {
    assert.deepEqual(catalogModels("no-such-provider"), {});
    assert.deepEqual(catalogModels("__proto__"), {});
    assert.equal(catalogModels("openai"), catalogModels("openai"), "converted once");
  });

  it("converts models.dev's shape, leaving out what it does not give", () => {
    assert.deepEqual(toModelInfo({}), {});
    assert.deepEqual(
      toModelInfo({
        limit: { context: 8192, output: 1024 },
        cost: { input: 1, output: 2 },
        modalities: { input: ["text"], output: ["text"] },
        tool_call: false,
      }),
      {
        context: 8192,
        output: 1024,
        price: { input: 1, output: 2 },
        modalities: { input: ["text"], output: ["text"] },
        images: false,
        tools: false,
      },
    );
  });

  it("has the SDK-reached providers' models under the ids each service names them by", () => {
    const bedrock = catalogModels("bedrock");
    for (const id of [
      "anthropic.claude-sonnet-4-5-20250929-v1:0",
      "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "global.anthropic.claude-opus-4-5-20251101-v1:0",
      "qwen.qwen3-coder-480b-a35b-v1:0",
    ]) {
      assert.ok(bedrock[id], `bedrock ${id}`);
    }
    // Bedrock's EU inference profile costs more than the US one: each id has its own price.
    assert.deepEqual(bedrock["eu.anthropic.claude-sonnet-4-5-20250929-v1:0"]?.price, {
      input: 3.3,
      output: 16.5,
      cacheRead: 0.33,
      cacheWrite: 4.125,
    });
    assert.equal(catalogModels("vertex")["claude-sonnet-4-5@20250929"]?.price?.cacheWrite, 3.75);
    assert.equal(catalogModels("vertex")["gemini-2.5-pro"]?.price?.cacheRead, 0.125);
    assert.equal(catalogModels("openrouter")["anthropic/claude-sonnet-4.5"]?.context, 1_000_000);
    assert.equal(catalogModels("openrouter")["qwen/qwen3-coder"]?.thinks, false);
    assert.deepEqual(catalogModels("azure")["gpt-5"]?.modalities, { input: ["text", "image"], output: ["text"] });
  });

  it("feeds a model's tool support to how it takes tools: the catalog's no is none, config's word wins", () => {
    const chat = catalogModels("azure")["gpt-5-chat"];
    assert.equal(chat?.tools, false);
    assert.equal(toolModeOf(chat ?? {}).mode, "none");
    // The catalog's yes leaves text calls detectable (not "native" said explicitly).
    assert.deepEqual(toolModeOf(catalogModels("openrouter")["z-ai/glm-4.6"] ?? {}), {
      mode: "native",
      explicit: false,
    });
    const config = configFrom({
      provider: {
        work: { type: "azure", resourceName: "r", apiKey: "k", models: { "gpt-5-chat": { tools: "text" } } },
      },
    });
    const resolved = resolveModel("work/gpt-5-chat", config, {});
    assert.ok(resolved.ok);
    assert.equal(resolved.model.info.tools, "text");
    assert.equal(resolved.model.info.context, 128_000, "the rest from the catalog");
    // Who said no tools is on record: the catalog (code), or config.
    const catalogNo = resolveModel(
      "work/gpt-5-chat",
      configFrom({ provider: { work: { type: "azure", resourceName: "r", apiKey: "k" } } }),
      {},
    );
    assert.ok(catalogNo.ok);
    assert.deepEqual(toolTermsOf(catalogNo.model).noTools?.holder, "code");
    assert.match(
      toolTermsOf(catalogNo.model).noTools?.detail ?? "",
      /bosun's catalog says it makes no tool calls \(set provider\.work\.models\["gpt-5-chat"\]\.tools to "text"/,
    );
    const configNo = resolveModel(
      "work/gpt-5",
      configFrom({
        provider: { work: { type: "azure", resourceName: "r", apiKey: "k", models: { "gpt-5": { tools: "none" } } } },
      }),
      {},
    );
    assert.ok(configNo.ok);
    assert.deepEqual(toolTermsOf(configNo.model).noTools, {
      holder: "config",
      detail: 'the model does not take tools: provider.work.models["gpt-5"].tools is "none"',
    });
    assert.equal(toolTermsOf(resolved.model).noTools, undefined, "text mode takes tools");
  });

  it("gives a provider of a service type its service's catalog, and a gateway of another type none", () => {
    assert.equal(catalogFor("bedrock", "bedrock"), catalogModels("bedrock"));
    assert.equal(catalogFor("eu-bedrock", "bedrock"), catalogModels("bedrock"));
    assert.equal(catalogFor("work", "azure"), catalogModels("azure"));
    assert.deepEqual(catalogFor("proxy", "openai"), {});
    assert.deepEqual(catalogFor("local", "openai-compatible"), {});
    assert.deepEqual(catalogFor("__proto__", undefined), {});
    const config = configFrom({ provider: { work: { type: "azure", resourceName: "r", apiKey: "k" } } });
    const work = findProvider("work", config, {});
    assert.equal(work?.models["gpt-5"]?.context, 272_000);
    assert.equal(work?.closed, false, "lists no models of its own: any deployment name is taken");
  });
});
