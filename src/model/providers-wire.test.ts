import assert from "node:assert/strict";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { createLanguageModel } from "./create.js";
import type { Provider } from "./providers.js";
import type { ResolvedModel } from "./resolve.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A local endpoint that records one request and answers 400, so only the request's shape is checked. */
async function capture(provider: Omit<Provider, "baseURL">, modelId: string): Promise<Seen> {
  let seen: Seen | undefined;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      res.writeHead(400, { "content-type": "application/json" }).end('{"error":{"message":"scripted"}}');
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const resolved = { ref: "x", modelId, info: {}, known: false, provider: { ...provider, baseURL } } as ResolvedModel;
    const model = (await createLanguageModel(resolved)) as unknown as {
      doGenerate(o: unknown): Promise<unknown>;
    };
    await model
      .doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })
      .catch(() => undefined);
  } finally {
    server.close();
  }
  assert.ok(seen, "the provider sent no request");
  return seen;
}

const base = (type: Provider["type"], settings: Record<string, string> = {}): Omit<Provider, "baseURL"> => ({
  name: String(type),
  ...(type ? { type } : {}),
  apiKey: "k-123",
  credentials: { present: true, source: "test", needed: true },
  models: {},
  closed: false,
  builtin: false,
  configured: true,
  settings,
  envSettings: [],
});

describe("providers' requests, as each SDK forms them", () => {
  it("openrouter: /chat/completions, a bearer key, the model id in the body", async () => {
    const seen = await capture(base("openrouter"), "anthropic/claude-sonnet-4.5");
    assert.equal(seen.url, "/chat/completions");
    assert.equal(seen.headers.authorization, "Bearer k-123");
    assert.equal(JSON.parse(seen.body).model, "anthropic/claude-sonnet-4.5");
  });

  it("azure: the deployment as model, an api-key header", async () => {
    const seen = await capture(base("azure"), "my-deployment");
    assert.match(seen.url, /^\/responses/);
    assert.equal(seen.headers["api-key"], "k-123");
    assert.equal(JSON.parse(seen.body).model, "my-deployment");
  });

  it("bedrock: /model/<id>/converse with a bearer key (AWS_BEARER_TOKEN_BEDROCK form)", async () => {
    const seen = await capture(base("bedrock", { region: "us-east-1" }), "anthropic.claude-x");
    assert.equal(seen.url, `/model/${encodeURIComponent("anthropic.claude-x")}/converse`);
    assert.equal(seen.headers.authorization, "Bearer k-123");
  });
});
