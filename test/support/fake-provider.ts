import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/**
 * A provider package as a person installs one into `<BOSUN_HOME>/providers` (npm install --prefix):
 * `createFake(options)` returns a LanguageModelV2-shaped model that asks `<baseURL>/answer` through
 * the fetch bosun hands it, and streams back the text it gets.
 */
const INDEX = `
export function createFake(options) {
  async function ask(call) {
    const res = await options.fetch(options.baseURL + "/answer", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer " + options.apiKey },
      body: JSON.stringify({ prompt: call.prompt }),
      signal: call.abortSignal,
    });
    return (await res.json()).text;
  }
  const usage = { inputTokens: 4, outputTokens: 3, totalTokens: 7 };
  return (modelId) => ({
    specificationVersion: "v2",
    provider: "fake",
    modelId,
    supportedUrls: {},
    async doGenerate(call) {
      return { content: [{ type: "text", text: await ask(call) }], finishReason: "stop", usage, warnings: [] };
    },
    async doStream(call) {
      const text = await ask(call);
      const parts = [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t1" },
        { type: "text-delta", id: "t1", delta: text },
        { type: "text-end", id: "t1" },
        { type: "finish", finishReason: "stop", usage },
      ];
      return { stream: new ReadableStream({ start(c) { for (const p of parts) c.enqueue(p); c.close(); } }) };
    },
  });
}
`;

/** Writes the package `name` into `<home>/providers/node_modules/<name>/`. */
export function installFakeProvider(home: string, name: string): void {
  const dir = join(home, "providers", "node_modules", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name, version: "1.0.0", type: "module", main: "index.js", exports: "./index.js" }),
  );
  writeFileSync(join(dir, "index.js"), INDEX);
}

export interface FakeServer {
  url: string;
  requests: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

/** What the fake package talks to: `/answer` says `text`. */
export async function startFakeServer(text: string): Promise<FakeServer> {
  const requests: FakeServer["requests"] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      requests.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
