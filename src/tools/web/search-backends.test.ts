import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { searchWeb } from "./search-backends.js";

describe("search backends", () => {
  let server: Server;
  let base = "";
  const asked: Array<{ req: IncomingMessage; body: string }> = [];
  before(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        asked.push({ req, body });
        if (req.url === "/tavily") {
          const results = [{ title: "T", url: "https://t.example", content: "about t" }];
          return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ results }));
        }
        if (req.url?.startsWith("/denied?")) {
          return res.writeHead(401, { "content-type": "application/json" }).end('{"detail":"invalid api key"}');
        }
        res.writeHead(200, { "content-type": "text/html" }).end("<html>a proxy page</html>");
      });
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());
  const signal = () => AbortSignal.timeout(5000);

  it("Tavily: the query and result count posted, the key as a bearer token; hits read from results", async () => {
    const found = await searchWeb({ provider: "tavily", apiKey: "tv-1", url: `${base}/tavily` }, "what", 3, signal());
    assert.deepEqual(found, {
      hits: [{ title: "T", url: "https://t.example", snippet: "about t" }],
      endpoint: `${base}/tavily`,
    });
    const last = asked.at(-1);
    assert.equal(last?.req.method, "POST");
    assert.equal(last?.req.headers.authorization, "Bearer tv-1");
    assert.deepEqual(JSON.parse(last?.body ?? "{}"), { query: "what", max_results: 3 });
  });

  it("an HTTP error says the status and the API's own words; an answer not in its shape says so", async () => {
    const denied = await searchWeb({ provider: "brave", apiKey: "x", url: `${base}/denied` }, "q", 3, signal());
    assert.ok("error" in denied);
    assert.match(
      "error" in denied ? denied.error : "",
      /brave search answered HTTP 401 Unauthorized: \{"detail":"invalid api key"\}/,
    );
    const odd = await searchWeb({ provider: "tavily", url: `${base}/other` }, "q", 3, signal());
    assert.match("error" in odd ? odd.error : "", /not its JSON/);
  });

  it("a backend that cannot be reached is a result, not a throw", async () => {
    // A port nothing listens on: one just freed.
    const spare = createServer();
    await new Promise<void>((done) => spare.listen(0, "127.0.0.1", done));
    const port = (spare.address() as AddressInfo).port;
    await new Promise<void>((done) => spare.close(() => done()));
    const gone = await searchWeb({ provider: "brave", url: `http://127.0.0.1:${port}/x` }, "q", 3, signal());
    assert.match("error" in gone ? gone.error : "", /brave search could not be reached \(ECONNREFUSED\)/);
  });
});
