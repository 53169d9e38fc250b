import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

/** A scripted model that makes one call, then says it is done. */
const calling = (name: string, args: Record<string, unknown>) => ({
  rules: [
    { match: { request: 1 }, reply: { toolCalls: [{ id: "c1", name, arguments: args }] } },
    { reply: { text: "Done." } },
  ],
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return (server.address() as AddressInfo).port;
}

function stop(server: Server): void {
  server.closeAllConnections();
  server.close();
}

const PAGE = `<!doctype html><html><head><title>Docs</title><script>steal()</script></head>
<body><h1>Install</h1><p>Run <code>npm i bosun</code>, then read <a href="/guide">the guide</a>.</p>
<ul><li>fast</li><li>small</li></ul></body></html>`;

describe("webfetch, driving the real binary", () => {
  let site: Server;
  let port = 0;
  let served = 0;
  before(async () => {
    site = createServer((req, res) => {
      served++;
      if (req.url === "/docs") return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
      if (req.url === "/metadata")
        return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      if (req.url === "/away") return res.writeHead(302, { location: `http://localhost:${port}/docs` }).end();
      if (req.url === "/big") return res.writeHead(200, { "content-type": "text/plain" }).end("line\n".repeat(50_000));
      if (req.url === "/logo.png") return res.writeHead(200, { "content-type": "image/png" }).end(Buffer.alloc(64));
      res.writeHead(404, { "content-type": "text/plain" }).end("no such page");
    });
    port = await listen(site);
  });
  after(() => stop(site));

  const base = () => `http://127.0.0.1:${port}`;
  /** What the model was shown as the call's result (the second request carries it). */
  const shown = (s: Awaited<ReturnType<typeof startScenario>>) =>
    s.server
      .request(2)
      .normalized?.messages.map((m) => m.text)
      .join("\n") ?? "";

  it("an HTML page from 127.0.0.1, allowed by a rule naming it, comes back as markdown", async () => {
    const s = await startScenario(calling("webfetch", { url: `${base()}/docs` }), {
      global: { permission: { web: { "127.0.0.1": "allow" } } },
    });
    try {
      const result = await s.run(["run", "read the docs"]);
      assert.equal(result.code, 0, result.stderr);
      const text = shown(s);
      assert.match(text, /# Install/);
      assert.match(text, /Run `npm i bosun`, then read \[the guide\]\(http:\/\/127\.0\.0\.1:\d+\/guide\)\./);
      assert.match(text, /- {1,3}fast/);
      assert.doesNotMatch(text, /steal\(\)/);
      const { decisions } = s.latest();
      expectDecision(decisions, "call.permission", "config", "allow");
      const address = expectDecision(decisions, "web.address", "config", "allowed");
      assert.equal(address.subject?.address, "127.0.0.1");
      assert.equal(address.subject?.call, "c1");
      assert.ok(s.server.request(1).normalized?.tools.includes("webfetch"));
    } finally {
      await s.close();
    }
  });

  it("with no rule, web:<host> asks (approve mode): with nobody to ask it is denied, and nothing is fetched", async () => {
    const before = served;
    const s = await startScenario(calling("webfetch", { url: `${base()}/docs` }));
    try {
      const result = await s.run(["run", "read the docs"]);
      assert.equal(result.code, 3, result.stderr);
      const permission = expectDecision(s.latest().decisions, "call.permission", "code", "ask");
      assert.match(JSON.stringify(permission.reasons), /web:127\.0\.0\.1/);
      assert.equal(served, before);
    } finally {
      await s.close();
    }
  });

  it("a wildcard allow does not reach a loopback address: refused by code, the result says which rule would", async () => {
    const s = await startScenario(calling("webfetch", { url: `${base()}/docs` }), {
      global: { permission: { web: "allow" } },
    });
    try {
      const result = await s.run(["run", "read the docs"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        shown(s),
        /127\.0\.0\.1 is loopback \(127\.0\.0\.0\/8\): reached only when an allow rule names it \(web:127\.0\.0\.1\)/,
      );
      expectDecision(s.latest().decisions, "web.address", "code", "refused");
    } finally {
      await s.close();
    }
  });

  it("a redirect to the cloud metadata address is refused before connecting, though every host is allowed", async () => {
    const s = await startScenario(calling("webfetch", { url: `${base()}/metadata` }), {
      global: { permission: { web: { "*": "allow", "127.0.0.1": "allow" } } },
    });
    try {
      const result = await s.run(["run", "fetch it"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(shown(s), /Not fetched: 169\.254\.169\.254 is cloud metadata/);
      const { decisions } = s.latest();
      expectDecision(decisions, "web.address", "config", "allowed");
      const refused = expectDecision(decisions, "web.address", "code", "refused");
      assert.equal(refused.subject?.address, "169.254.169.254");
      // The redirect itself was followed (every host allowed); the address it led to was not reached.
      expectDecision(decisions, "web.redirect", "config", "followed");
    } finally {
      await s.close();
    }
  });

  it("a redirect to a host no rule allows is handed back as a new URL, not followed", async () => {
    const s = await startScenario(calling("webfetch", { url: `${base()}/away` }), {
      global: { permission: { web: { "127.0.0.1": "allow" } } },
    });
    try {
      const result = await s.run(["run", "fetch it"]);
      assert.equal(result.code, 0, result.stderr);
      const text = shown(s);
      assert.match(text, /redirected to http:\/\/localhost:\d+\/docs, not followed: .*web:localhost is a new request/);
      assert.match(text, /call webfetch with that URL/);
      assert.doesNotMatch(text, /# Install/);
      // Its own decision on record: the rules would ask about localhost, so nobody was asked mid-fetch.
      const handed = s.latest().decisions.find((d) => d.seat === "web.redirect");
      assert.equal(handed?.answer, "handed back");
      assert.deepEqual(handed?.subject, {
        from: `${base()}/away`,
        location: `http://localhost:${port}/docs`,
        call: "c1",
        step: 1,
      });
    } finally {
      await s.close();
    }
  });

  it("a redirect to another host a rule allows is followed, held by config and recorded as seat web.redirect", async () => {
    const s = await startScenario(calling("webfetch", { url: `${base()}/away` }), {
      global: { permission: { web: { "127.0.0.1": "allow", localhost: "allow" } } },
    });
    try {
      const result = await s.run(["run", "fetch it"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(shown(s), /# Install/);
      const followed = expectDecision(s.latest().decisions, "web.redirect", "config", "followed");
      assert.match(followed.reasons[0]?.detail ?? "", /web:localhost is a new request, allowed outright/);
      // The new host's address is checked too, and passes: localhost is named by a rule.
      assert.equal(s.latest().decisions.filter((d) => d.seat === "web.address" && d.answer === "allowed").length, 2);
    } finally {
      await s.close();
    }
  });

  it("reads at most max_bytes and says the body was cut; binary is refused with a note; a 404 says so", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { request: 1 },
            reply: {
              toolCalls: [
                { id: "big", name: "webfetch", arguments: { url: `${base()}/big`, max_bytes: 1000 } },
                { id: "png", name: "webfetch", arguments: { url: `${base()}/logo.png` } },
                { id: "gone", name: "webfetch", arguments: { url: `${base()}/gone` } },
              ],
            },
          },
          { reply: { text: "Done." } },
        ],
      },
      { global: { permission: { web: { "127.0.0.1": "allow" } } } },
    );
    try {
      const result = await s.run(["run", "fetch them"]);
      assert.equal(result.code, 0, result.stderr);
      const text = shown(s);
      assert.match(text, /\[Truncated: only the first 1000 bytes of the body were read \(max_bytes 1000\)/);
      assert.ok(!text.includes("line\n".repeat(201)), "no more than the cap reached the model");
      assert.match(text, /Not shown: http:\/\/127\.0\.0\.1:\d+\/logo\.png is image\/png .*webfetch returns text only/);
      assert.match(text, /HTTP 404 Not Found from http:\/\/127\.0\.0\.1:\d+\/gone\.\n\nno such page/);
    } finally {
      await s.close();
    }
  });

  it("a URL that is not http(s) is never allowed", async () => {
    const s = await startScenario(calling("webfetch", { url: "file:///etc/passwd" }), {
      global: { permission: { web: "allow" } },
    });
    try {
      await s.run(["run", "fetch it"]);
      assert.doesNotMatch(shown(s), /root:x:0/);
      // Not described, so never allowed: it asks, and with nobody to ask it is denied.
      const permission = expectDecision(s.latest().decisions, "call.permission", "code", "ask");
      assert.match(JSON.stringify(permission.reasons), /only http and https URLs are fetched, not file:/);
    } finally {
      await s.close();
    }
  });
});

describe("websearch, driving the real binary", () => {
  let backend: Server;
  let port = 0;
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  before(async () => {
    backend = createServer((req, res) => {
      seen.push({ url: req.url ?? "", headers: req.headers });
      const results = [
        {
          title: "Bosun docs",
          url: "https://bosun.example/docs",
          description: "How to <strong>install</strong> bosun",
        },
        { title: "Bosun repo", url: "https://code.example/bosun", description: "Source" },
      ];
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ web: { results } }));
    });
    port = await listen(backend);
  });
  after(() => stop(backend));

  it("asks the configured backend (Brave's API, pointed at 127.0.0.1) with the key from {env:}; judged as web:search", async () => {
    const s = await startScenario(calling("websearch", { query: "install bosun" }), {
      global: {
        web: {
          search: { provider: "brave", api_key: "{env:BRAVE_KEY}", url: `http://127.0.0.1:${port}/res/v1/web/search` },
        },
        permission: { web: { search: "allow" } },
      },
    });
    try {
      const result = await s.run(["run", "search"], { env: { BRAVE_KEY: "k-123" } });
      assert.equal(result.code, 0, result.stderr);
      const text =
        s.server
          .request(2)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(text, /1\. Bosun docs\n {3}https:\/\/bosun\.example\/docs\n {3}How to install bosun/);
      assert.match(text, /2\. Bosun repo/);
      const asked = seen.at(-1);
      assert.equal(new URL(asked?.url ?? "", "http://x").searchParams.get("q"), "install bosun");
      assert.equal(asked?.headers["x-subscription-token"], "k-123");
      assert.ok(s.server.request(1).normalized?.tools.includes("websearch"));
      const permission = expectDecision(s.latest().decisions, "call.permission", "config", "allow");
      assert.match(JSON.stringify(permission.reasons), /web:search/);
    } finally {
      await s.close();
    }
  });

  it("without web.search, websearch is not offered, and context.tools says why", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const result = await s.run(["run", "hello"]);
      assert.equal(result.code, 0, result.stderr);
      const tools = s.server.request(1).normalized?.tools ?? [];
      assert.ok(tools.includes("webfetch"));
      assert.ok(!tools.includes("websearch"));
      const offered = expectDecision(s.latest().decisions, "context.tools", "code");
      assert.ok(!(offered.answer as string[]).includes("websearch"));
      assert.ok(
        offered.reasons.some((r) => r.detail === "websearch: no search backend is configured (config web.search)"),
      );
    } finally {
      await s.close();
    }
  });

  it("native: the model provider's own web search is sent to an Anthropic model when web:search is allowed outright", async () => {
    const s = await startScenario(
      { rules: [{ reply: { text: "Done." } }] },
      { protocol: "anthropic", global: { web: { search: { provider: "native" } } } },
    );
    try {
      s.setUserConfig({ web: { search: { provider: "native" } }, permission: { web: { search: "allow" } } });
      const result = await s.run(["run", "search"]);
      assert.equal(result.code, 0, result.stderr);
      const sent = (s.server.request(1).json as { tools?: Array<{ type?: string; name: string }> }).tools ?? [];
      assert.deepEqual(
        sent.filter((t) => t.name === "web_search").map((t) => t.type),
        ["web_search_20250305"],
      );
      const offered = expectDecision(s.latest().decisions, "context.tools", "code");
      assert.ok((offered.answer as string[]).includes("websearch"));
    } finally {
      await s.close();
    }
  });

  it("native: each search the provider ran is on record (call.permission), held by the rule that let it be sent", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            reply: {
              providerSearches: [
                { query: "bosun release notes", results: [{ url: "https://example.com/notes", title: "Notes" }] },
              ],
              text: "Version 2 is out.",
            },
          },
        ],
      },
      { protocol: "anthropic" },
    );
    try {
      s.setUserConfig({ web: { search: { provider: "native" } }, permission: { web: { search: "allow" } } });
      const result = await s.run(["run", "what is new in bosun?"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Version 2 is out\./);
      const ran = expectDecision(s.latest().decisions, "call.permission", "config", "allow");
      assert.equal(ran.reasons[0]?.rule, "run by the provider");
      assert.match(
        ran.reasons[0]?.detail ?? "",
        /websearch \{"query":"bosun release notes"\}: the model's provider ran it itself/,
      );
      assert.match(ran.reasons[0]?.detail ?? "", /web:search/);
      // bosun ran nothing for it: no tool result went back, and one request answered the turn.
      assert.equal(s.server.requests.length, 1);
    } finally {
      await s.close();
    }
  });

  it("native: not sent when web:search asks (nobody could be asked before the provider searches), nor to a model without one", async () => {
    for (const protocol of ["anthropic", "openai-compatible"] as const) {
      const s = await startScenario(
        { rules: [{ reply: { text: "Done." } }] },
        { protocol, global: { web: { search: { provider: "native" } } } },
      );
      try {
        const result = await s.run(["run", "search"]);
        assert.equal(result.code, 0, result.stderr);
        const sent = (s.server.request(1).json as { tools?: Array<{ name?: string; function?: { name: string } }> })
          .tools;
        assert.ok(!JSON.stringify(sent ?? []).includes("web_search"), protocol);
        assert.ok(!(s.server.request(1).normalized?.tools ?? []).includes("websearch"), protocol);
        const offered = expectDecision(s.latest().decisions, "context.tools", "code");
        const why = offered.reasons.find((r) => r.detail?.startsWith("websearch:"))?.detail ?? "";
        assert.match(
          why,
          protocol === "anthropic"
            ? /web:search is not allowed outright \(it asks\)/
            : /runs no web search bosun can send/,
        );
      } finally {
        await s.close();
      }
    }
  });
});
