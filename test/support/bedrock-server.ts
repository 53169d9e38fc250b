import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";

/** One request as the local Bedrock endpoint got it. */
export interface BedrockRequest {
  method: string;
  /** As sent, still percent-encoded: what SigV4 signs. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface BedrockServer {
  url: string;
  requests: BedrockRequest[];
  close(): Promise<void>;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One AWS event-stream frame (prelude, headers, payload, both CRC32s), as Bedrock sends each event. */
export function eventFrame(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ":event-type": { type: "string", value: eventType },
      ":content-type": { type: "string", value: "application/json" },
      ":message-type": { type: "string", value: "event" },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** The events of a converse-stream answer that says `parts`, one text delta each. */
export function converseStream(parts: string[]): Uint8Array[] {
  return [
    eventFrame("messageStart", { role: "assistant" }),
    ...parts.map((text) => eventFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { text } })),
    eventFrame("contentBlockStop", { contentBlockIndex: 0 }),
    eventFrame("messageStop", { stopReason: "end_turn" }),
    eventFrame("metadata", { usage: { inputTokens: 11, outputTokens: 5, totalTokens: 16 }, metrics: { latencyMs: 1 } }),
  ];
}

/**
 * A local Bedrock runtime: `/model/<id>/converse-stream` answers `parts` as event-stream frames,
 * each frame written on its own (and the first one split in two) so the client must reassemble them;
 * `/model/<id>/converse` answers the same text as JSON.
 */
export async function startBedrockServer(parts: string[]): Promise<BedrockServer> {
  const requests: BedrockRequest[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", async () => {
      const path = req.url ?? "";
      requests.push({ method: req.method ?? "", path, headers: req.headers, body });
      if (path.endsWith("/converse-stream")) {
        res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
        const frames = converseStream(parts);
        const first = frames[0] ?? new Uint8Array();
        res.write(first.subarray(0, 7));
        await new Promise((r) => setTimeout(r, 5));
        res.write(first.subarray(7));
        for (const frame of frames.slice(1)) res.write(frame);
        res.end();
        return;
      }
      if (path.endsWith("/converse")) {
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            output: { message: { role: "assistant", content: [{ text: parts.join("") }] } },
            stopReason: "end_turn",
            usage: { inputTokens: 11, outputTokens: 5, totalTokens: 16 },
          }),
        );
        return;
      }
      res.writeHead(404, { "content-type": "application/json" }).end('{"message":"no such path"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface SigV4 {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  /** Whether the signature is the one `secret` gives for this exact request. */
  valid: boolean;
}

const sha256 = (data: string) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/**
 * Checks a request's AWS Signature Version 4 from scratch (the AWS spec, not the SDK's signer):
 * the canonical request, the string to sign, the derived key; a changed byte fails it.
 */
export function checkSigV4(request: BedrockRequest, secret: string): SigV4 {
  const auth = String(request.headers.authorization ?? "");
  const found =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!found) throw new Error(`not a SigV4 Authorization header: ${auth}`);
  const [, accessKeyId = "", date = "", region = "", service = "", signed = "", signature = ""] = found;
  const signedHeaders = signed.split(";");
  const [pathPart = "", query = ""] = request.path.split("?");
  // Outside S3 each path segment is encoded once more for the canonical URI.
  const canonicalUri = pathPart
    .split("/")
    .map((segment) =>
      encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join("/");
  const canonicalQuery = query.split("&").filter(Boolean).sort().join("&");
  const headerLines = signedHeaders.map(
    (name) =>
      `${name}:${String(request.headers[name] ?? "")
        .trim()
        .replace(/\s+/g, " ")}\n`,
  );
  const payloadHash = String(request.headers["x-amz-content-sha256"] ?? sha256(request.body));
  const canonical = [request.method, canonicalUri, canonicalQuery, headerLines.join(""), signed, payloadHash].join(
    "\n",
  );
  const amzDate = String(request.headers["x-amz-date"] ?? "");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), "aws4_request");
  const valid = createHmac("sha256", key).update(toSign).digest("hex") === signature;
  return { accessKeyId, date, region, service, signedHeaders, valid };
}
