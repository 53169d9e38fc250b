import assert from "node:assert/strict";
import { generateKeyPairSync, verify } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { createLanguageModel } from "./create.js";
import { serviceAccountTokenUri } from "./google-auth.js";
import { findProvider } from "./providers.js";
import type { ResolvedModel } from "./resolve.js";

interface Seen {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

const { privateKey, publicKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

/** One local server: the token endpoint (/token) and Vertex (/vertex/...), recording every request. */
let seen: Seen[] = [];
let base = "";
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => {
    body += c;
  });
  req.on("end", () => {
    const path = req.url ?? "";
    seen.push({ path, headers: req.headers, body });
    if (path === "/token") return token(body, res);
    if (path.endsWith(":rawPredict")) return json(res, anthropicMessage());
    if (path.endsWith(":streamRawPredict")) return anthropicStream(res);
    if (path.endsWith(":generateContent")) return json(res, geminiAnswer());
    res.writeHead(404).end();
  });
});

function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

/** Answers a JWT grant whose assertion the test's key signed; anything else is refused as Google would. */
function token(body: string, res: ServerResponse): void {
  const form = new URLSearchParams(body);
  const [header, payload, signature] = (form.get("assertion") ?? "").split(".");
  const signed =
    header !== undefined &&
    payload !== undefined &&
    signature !== undefined &&
    verify("RSA-SHA256", Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, "base64url"));
  if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer" || !signed) {
    json(res, { error: "invalid_grant", error_description: "bad assertion" }, 400);
    return;
  }
  json(res, { access_token: "ya29.local-token", expires_in: 3600, token_type: "Bearer" });
}

const anthropicMessage = () => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content: [{ type: "text", text: "claude on vertex" }],
  stop_reason: "end_turn",
  usage: { input_tokens: 3, output_tokens: 2 },
});

function anthropicStream(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const events: Array<[string, unknown]> = [
    ["message_start", { type: "message_start", message: { ...anthropicMessage(), content: [], stop_reason: null } }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "streamed" } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } }],
    ["message_stop", { type: "message_stop" }],
  ];
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

const geminiAnswer = () => ({
  candidates: [{ content: { role: "model", parts: [{ text: "gemini on vertex" }] }, finishReason: "STOP" }],
  usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
});

const prompt = [{ role: "user", content: [{ type: "text", text: "hi" }] }];

interface Callable {
  doGenerate(o: unknown): Promise<{ content: Array<{ type: string; text?: string }> }>;
  doStream(o: unknown): Promise<{ stream: ReadableStream<{ type: string; delta?: string }> }>;
}

/** The vertex provider as bosun resolves it from config and this environment, pointed at the local server. */
async function vertexModel(modelId: string, env: NodeJS.ProcessEnv): Promise<Callable> {
  const provider = findProvider(
    "vertex",
    configFrom({ provider: { vertex: { project: "p1", location: "us-east5" } } }),
    env,
  );
  assert.ok(provider);
  const resolved = {
    ref: `vertex/${modelId}`,
    modelId,
    info: {},
    known: false,
    provider: { ...provider, baseURL: `${base}/vertex` },
  } as ResolvedModel;
  return (await createLanguageModel(resolved)) as unknown as Callable;
}

describe("vertex with application-default credentials (a service-account key file)", () => {
  let keyFile = "";
  const saved = process.env.GOOGLE_APPLICATION_CREDENTIALS;

  before(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    keyFile = join(mkdtempSync(join(tmpdir(), "bosun-adc-")), "sa.json");
    writeFileSync(
      keyFile,
      JSON.stringify({
        type: "service_account",
        project_id: "p1",
        private_key_id: "kid-1",
        private_key: privateKey,
        client_email: "bosun-test@p1.iam.gserviceaccount.com",
        client_id: "1",
        token_uri: `${base}/token`,
      }),
    );
    // google-auth-library reads the variable from the process itself.
    process.env.GOOGLE_APPLICATION_CREDENTIALS = keyFile;
  });

  after(() => {
    server.close();
    if (saved === undefined) delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
    else process.env.GOOGLE_APPLICATION_CREDENTIALS = saved;
  });

  it("the key file is named as the credential source, never read out", () => {
    const provider = findProvider("vertex", configFrom({}), { GOOGLE_APPLICATION_CREDENTIALS: keyFile });
    assert.equal(provider?.credentials.source, "environment variables GOOGLE_APPLICATION_CREDENTIALS");
    assert.equal(provider?.apiKey, undefined);
    assert.equal(serviceAccountTokenUri({ GOOGLE_APPLICATION_CREDENTIALS: keyFile }), `${base}/token`);
  });

  it("a Claude model: the signed JWT grant goes to the key file's token_uri, its token to rawPredict and streamRawPredict", async () => {
    seen = [];
    const model = await vertexModel("claude-sonnet-4-5", process.env);
    const answer = await model.doGenerate({ prompt });
    assert.deepEqual(
      answer.content.filter((p) => p.type === "text").map((p) => p.text),
      ["claude on vertex"],
    );
    const grant = seen.find((s) => s.path === "/token");
    assert.ok(grant, "no token request reached the key file's token_uri");
    const form = new URLSearchParams(grant.body);
    assert.equal(form.get("grant_type"), "urn:ietf:params:oauth:grant-type:jwt-bearer");
    const claims = JSON.parse(Buffer.from(form.get("assertion")?.split(".")[1] ?? "", "base64url").toString());
    assert.equal(claims.iss, "bosun-test@p1.iam.gserviceaccount.com");
    assert.equal(claims.scope, "https://www.googleapis.com/auth/cloud-platform");
    const call = seen.find((s) => s.path === "/vertex/claude-sonnet-4-5:rawPredict");
    assert.ok(call, `no rawPredict request: ${seen.map((s) => s.path).join(", ")}`);
    assert.equal(call.headers.authorization, "Bearer ya29.local-token");
    const body = JSON.parse(call.body);
    assert.equal(body.anthropic_version, "vertex-2023-10-16");
    assert.equal(body.model, undefined, "Vertex names the model in the path, not the body");

    const { stream } = await model.doStream({ prompt });
    let text = "";
    for await (const part of stream as unknown as AsyncIterable<{ type: string; delta?: string }>) {
      if (part.type === "text-delta") text += part.delta ?? "";
    }
    assert.equal(text, "streamed");
    const streamed = seen.find((s) => s.path === "/vertex/claude-sonnet-4-5:streamRawPredict");
    assert.equal(streamed?.headers.authorization, "Bearer ya29.local-token");
  });

  it("a Gemini model: the same grant, its token on generateContent", async () => {
    seen = [];
    const model = await vertexModel("gemini-2.5-pro", process.env);
    const answer = await model.doGenerate({ prompt });
    assert.deepEqual(
      answer.content.filter((p) => p.type === "text").map((p) => p.text),
      ["gemini on vertex"],
    );
    assert.equal(seen[0]?.path, "/token", "the token is fetched before the model is asked");
    const call = seen.find((s) => s.path === "/vertex/models/gemini-2.5-pro:generateContent");
    assert.ok(call, `no generateContent request: ${seen.map((s) => s.path).join(", ")}`);
    assert.equal(call.headers.authorization, "Bearer ya29.local-token");
  });

  it("a token endpoint that refuses the grant fails the request, naming why", async () => {
    const other = join(mkdtempSync(join(tmpdir(), "bosun-adc-")), "sa.json");
    const wrongKey = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    }).privateKey;
    writeFileSync(
      other,
      JSON.stringify({
        type: "service_account",
        private_key: wrongKey,
        client_email: "other@p1.iam.gserviceaccount.com",
        token_uri: `${base}/token`,
      }),
    );
    process.env.GOOGLE_APPLICATION_CREDENTIALS = other;
    try {
      seen = [];
      const model = await vertexModel("gemini-2.5-pro", process.env);
      await assert.rejects(model.doGenerate({ prompt }), /invalid_grant/);
      assert.equal(
        seen.some((s) => s.path.startsWith("/vertex/")),
        false,
        "no model request without a token",
      );
    } finally {
      process.env.GOOGLE_APPLICATION_CREDENTIALS = keyFile;
    }
  });
});
