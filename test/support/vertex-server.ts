import { generateKeyPairSync, verify } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the local token endpoint or Vertex got it. */
export interface VertexRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface VertexServer {
  url: string;
  /** The access token the token endpoint hands out for a grant the key signed. */
  token: string;
  requests: VertexRequest[];
  /** Writes a service-account key file whose token_uri is this server's /token, signed by this server's key. */
  writeKeyFile(path: string, options?: { otherKey?: boolean; silentToken?: boolean }): void;
  close(): Promise<void>;
}

const newKey = () =>
  generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });

function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

const anthropicMessage = (text: string) => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content: [{ type: "text", text }],
  stop_reason: "end_turn",
  usage: { input_tokens: 3, output_tokens: 2 },
});

function anthropicStream(res: ServerResponse, text: string): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const start = { ...anthropicMessage(""), content: [], stop_reason: null };
  const events: Array<[string, unknown]> = [
    ["message_start", { type: "message_start", message: start }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } }],
    ["message_stop", { type: "message_stop" }],
  ];
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

const geminiAnswer = (text: string) => ({
  candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }],
  usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
});

/**
 * A local Google: `/token` answers a JWT-bearer grant whose assertion this server's key signed
 * (anything else: invalid_grant, as Google answers); under any other path, Vertex — Anthropic's
 * rawPredict / streamRawPredict and Gemini's generateContent / streamGenerateContent — answers `text`.
 */
export async function startVertexServer(text: string): Promise<VertexServer> {
  const key = newKey();
  const requests: VertexRequest[] = [];
  const token = "ya29.local-token";
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const path = req.url ?? "";
      requests.push({ path, headers: req.headers, body });
      const route = path.split("?")[0] ?? "";
      // A token endpoint that takes the grant and never answers.
      if (route === "/silent-token") return;
      if (route === "/token") {
        const form = new URLSearchParams(body);
        const [header, payload, signature] = (form.get("assertion") ?? "").split(".");
        const signed =
          header !== undefined &&
          payload !== undefined &&
          signature !== undefined &&
          verify("RSA-SHA256", Buffer.from(`${header}.${payload}`), key.publicKey, Buffer.from(signature, "base64url"));
        if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer" || !signed) {
          json(res, { error: "invalid_grant", error_description: "bad assertion" }, 400);
        } else json(res, { access_token: token, expires_in: 3600, token_type: "Bearer" });
        return;
      }
      if (req.headers.authorization !== `Bearer ${token}`) {
        json(res, { error: { code: 401, message: "no valid token", status: "UNAUTHENTICATED" } }, 401);
      } else if (route.endsWith(":rawPredict")) json(res, anthropicMessage(text));
      else if (route.endsWith(":streamRawPredict")) anthropicStream(res, text);
      else if (route.endsWith(":generateContent")) json(res, geminiAnswer(text));
      else if (route.endsWith(":streamGenerateContent")) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`data: ${JSON.stringify(geminiAnswer(text))}\n\n`);
      } else json(res, { error: { code: 404, message: `no route ${route}` } }, 404);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    token,
    requests,
    writeKeyFile(path, options = {}) {
      writeFileSync(
        path,
        JSON.stringify({
          type: "service_account",
          project_id: "p1",
          private_key_id: "kid-1",
          private_key: options.otherKey ? newKey().privateKey : key.privateKey,
          client_email: "bosun-test@p1.iam.gserviceaccount.com",
          client_id: "1",
          token_uri: `${url}/${options.silentToken ? "silent-token" : "token"}`,
        }),
      );
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
