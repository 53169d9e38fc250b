import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { startVertexServer, type VertexServer } from "../../test/support/vertex-server.js";
import { createLanguageModel } from "./create.js";
import { serviceAccountTokenUri } from "./google-auth.js";
import { findProvider } from "./providers.js";
import type { ResolvedModel } from "./resolve.js";
import { ModelTimeoutError, type WaitLimits } from "./wait.js";

const prompt = [{ role: "user", content: [{ type: "text", text: "hi" }] }];

interface Callable {
  doGenerate(o: unknown): Promise<{ content: Array<{ type: string; text?: string }> }>;
  doStream(o: unknown): Promise<{ stream: ReadableStream<{ type: string; delta?: string }> }>;
}

describe("vertex with application-default credentials (a service-account key file)", () => {
  let server: VertexServer;
  let keyFile = "";
  const saved = process.env.GOOGLE_APPLICATION_CREDENTIALS;

  /** The vertex provider as bosun resolves it from config and this environment, pointed at the local server. */
  async function vertexModel(modelId: string, limits?: WaitLimits): Promise<Callable> {
    const config = configFrom({ provider: { vertex: { project: "p1", location: "us-east5" } } });
    const provider = findProvider("vertex", config, process.env);
    assert.ok(provider);
    const resolved = {
      ref: `vertex/${modelId}`,
      modelId,
      info: {},
      known: false,
      provider: { ...provider, baseURL: `${server.url}/vertex` },
    } as ResolvedModel;
    return (await createLanguageModel(resolved, limits)) as unknown as Callable;
  }

  const paths = () => server.requests.map((r) => r.path).join(", ");

  before(async () => {
    server = await startVertexServer("said on vertex");
    keyFile = join(mkdtempSync(join(tmpdir(), "bosun-adc-")), "sa.json");
    server.writeKeyFile(keyFile);
    // google-auth-library reads the variable from the process itself.
    process.env.GOOGLE_APPLICATION_CREDENTIALS = keyFile;
  });

  after(async () => {
    await server.close();
    if (saved === undefined) delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
    else process.env.GOOGLE_APPLICATION_CREDENTIALS = saved;
  });

  it("the key file is named as the credential source, never read out", () => {
    const provider = findProvider("vertex", configFrom({}), { GOOGLE_APPLICATION_CREDENTIALS: keyFile });
    assert.equal(provider?.credentials.source, "environment variables GOOGLE_APPLICATION_CREDENTIALS");
    assert.equal(provider?.apiKey, undefined);
    assert.equal(serviceAccountTokenUri({ GOOGLE_APPLICATION_CREDENTIALS: keyFile }), `${server.url}/token`);
  });

  it("a Claude model: the signed JWT grant goes to the key file's token_uri, its token to rawPredict and streamRawPredict", async () => {
    server.requests.length = 0;
    const model = await vertexModel("claude-sonnet-4-5");
    const answer = await model.doGenerate({ prompt });
    assert.deepEqual(
      answer.content.filter((p) => p.type === "text").map((p) => p.text),
      ["said on vertex"],
    );
    const grant = server.requests.find((s) => s.path === "/token");
    assert.ok(grant, "no token request reached the key file's token_uri");
    const form = new URLSearchParams(grant.body);
    assert.equal(form.get("grant_type"), "urn:ietf:params:oauth:grant-type:jwt-bearer");
    const claims = JSON.parse(Buffer.from(form.get("assertion")?.split(".")[1] ?? "", "base64url").toString());
    assert.equal(claims.iss, "bosun-test@p1.iam.gserviceaccount.com");
    assert.equal(claims.scope, "https://www.googleapis.com/auth/cloud-platform");
    const call = server.requests.find((s) => s.path === "/vertex/claude-sonnet-4-5:rawPredict");
    assert.ok(call, `no rawPredict request: ${paths()}`);
    assert.equal(call.headers.authorization, `Bearer ${server.token}`);
    const body = JSON.parse(call.body);
    assert.equal(body.anthropic_version, "vertex-2023-10-16");
    assert.equal(body.model, undefined, "Vertex names the model in the path, not the body");

    const { stream } = await model.doStream({ prompt });
    let text = "";
    for await (const part of stream as unknown as AsyncIterable<{ type: string; delta?: string }>) {
      if (part.type === "text-delta") text += part.delta ?? "";
    }
    assert.equal(text, "said on vertex");
    const streamed = server.requests.find((s) => s.path === "/vertex/claude-sonnet-4-5:streamRawPredict");
    assert.equal(streamed?.headers.authorization, `Bearer ${server.token}`);
  });

  it("a Gemini model: the same grant, its token on generateContent", async () => {
    server.requests.length = 0;
    const model = await vertexModel("gemini-2.5-pro");
    const answer = await model.doGenerate({ prompt });
    assert.deepEqual(
      answer.content.filter((p) => p.type === "text").map((p) => p.text),
      ["said on vertex"],
    );
    assert.equal(server.requests[0]?.path, "/token", "the token is fetched before the model is asked");
    const call = server.requests.find((s) => s.path === "/vertex/models/gemini-2.5-pro:generateContent");
    assert.ok(call, `no generateContent request: ${paths()}`);
    assert.equal(call.headers.authorization, `Bearer ${server.token}`);
  });

  it("a token endpoint that refuses the grant fails the request, naming why, and Vertex is never asked", async () => {
    const other = join(mkdtempSync(join(tmpdir(), "bosun-adc-")), "sa.json");
    server.writeKeyFile(other, { otherKey: true });
    process.env.GOOGLE_APPLICATION_CREDENTIALS = other;
    try {
      server.requests.length = 0;
      const model = await vertexModel("gemini-2.5-pro");
      await assert.rejects(model.doGenerate({ prompt }), /invalid_grant/);
      assert.equal(
        server.requests.some((s) => s.path.startsWith("/vertex/")),
        false,
        "no model request without a token",
      );
    } finally {
      process.env.GOOGLE_APPLICATION_CREDENTIALS = keyFile;
    }
  });

  it("the token request is bounded like a model request: a silent token endpoint times out, Vertex is never asked", async () => {
    const silent = join(mkdtempSync(join(tmpdir(), "bosun-adc-")), "sa.json");
    server.writeKeyFile(silent, { silentToken: true });
    process.env.GOOGLE_APPLICATION_CREDENTIALS = silent;
    try {
      server.requests.length = 0;
      const model = await vertexModel("gemini-2.5-pro", { timeoutMs: 150, idleMs: 150 });
      const started = Date.now();
      await assert.rejects(model.doGenerate({ prompt }), (error: unknown) => {
        // google-auth-library may wrap it; the bounded fetch's timeout is what ended the wait.
        const text = `${String(error)} ${String((error as { cause?: unknown }).cause ?? "")}`;
        return error instanceof ModelTimeoutError || /no response from vertex/.test(text);
      });
      assert.ok(Date.now() - started < 10_000, "the wait was not bounded");
      assert.ok(server.requests.some((r) => r.path === "/silent-token"));
      assert.equal(
        server.requests.some((r) => r.path.startsWith("/vertex/")),
        false,
      );
    } finally {
      process.env.GOOGLE_APPLICATION_CREDENTIALS = keyFile;
    }
  });
});
