import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import type { Decision } from "../../contracts/decisions.js";
import type { WebReach, WebVerdict } from "../../contracts/tools.js";
import { decideAddress } from "./address-check.js";
import { follow, MAX_REDIRECTS } from "./follow.js";
import { decideRedirect } from "./redirect.js";

/** Rules as a table: resource → verdict; anything else asks. */
function reach(rules: Record<string, "allow" | "deny">, named: string[] = []): WebReach & { decisions: Decision[] } {
  const decisions: Decision[] = [];
  return {
    decisions,
    judge(resource): WebVerdict {
      const effect = rules[resource] ?? rules["*"] ?? "ask";
      return { effect, holder: "config", named: named.includes(resource), reason: `rule web:${resource} → ${effect}` };
    },
    record: (decision) => decisions.push(decision),
  };
}

const local = async () => ({ addresses: [{ address: "127.0.0.1", family: 4 as const }] });

describe("seat web.address (decideAddress)", () => {
  const judge = reach({ "127.0.0.1": "allow", "10.0.0.1": "allow" }, ["127.0.0.1"]).judge;

  it("a public address passes (code); a private one needs a rule naming it", () => {
    const ok = decideAddress("example.com", [{ address: "93.184.216.34", family: 4 }], judge);
    assert.equal(ok.ok, true);
    assert.equal(ok.decision.holder, "code");
    assert.equal(ok.decision.answer, "allowed");
    const named = decideAddress("127.0.0.1", [{ address: "127.0.0.1", family: 4 }], judge);
    assert.equal(named.ok, true);
    assert.equal(named.decision.holder, "config");
    // Allowed, but by no rule naming it exactly: refused by code.
    const unnamed = decideAddress("intranet", [{ address: "10.0.0.1", family: 4 }], judge);
    assert.equal(unnamed.ok, false);
    assert.equal(unnamed.decision.holder, "code");
    assert.match(
      unnamed.ok ? "" : unnamed.reason,
      /10\.0\.0\.1 is private \(10\.0\.0\.0\/8\).*web:10\.0\.0\.1 or web:intranet/,
    );
  });

  it("a rule naming the host lets its private address through; a deny of the address refuses even a public one", () => {
    const byHost = reach({ "dev.local": "allow" }, ["dev.local"]).judge;
    assert.equal(decideAddress("dev.local", [{ address: "192.168.1.5", family: 4 }], byHost).ok, true);
    const denied = reach({ "93.184.216.34": "deny" }).judge;
    const answer = decideAddress("example.com", [{ address: "93.184.216.34", family: 4 }], denied);
    assert.equal(answer.ok, false);
    assert.equal(answer.decision.answer, "refused");
  });

  it("pins the first address that passes; none passing refuses with the first reason", () => {
    const mixed = decideAddress(
      "mixed.test",
      [
        { address: "169.254.169.254", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ],
      judge,
    );
    assert.equal(mixed.ok && mixed.pinned.address, "127.0.0.1");
    const none = decideAddress("x.test", [{ address: "::ffff:169.254.169.254", family: 6 }], judge);
    assert.equal(none.ok, false);
    assert.match(none.ok ? "" : none.reason, /cloud metadata/);
  });
});

describe("seat web.redirect (decideRedirect)", () => {
  const from = new URL("https://docs.test/a");
  const decide = (location: string, rules: Record<string, "allow" | "deny"> = {}, followed = 0) =>
    decideRedirect({ from, status: 302, location, followed, judge: reach(rules).judge });

  it("the same host is followed by code; a relative location resolves against the page", () => {
    const same = decide("/b");
    assert.equal(same.kind, "follow");
    assert.equal(same.kind === "follow" && same.next.href, "https://docs.test/b");
    assert.deepEqual(
      [same.decision.seat, same.decision.holder, same.decision.answer],
      ["web.redirect", "code", "followed"],
    );
  });

  it("another host: followed when allowed outright (its rule's holder), refused when denied, handed back when it would ask", () => {
    const allowed = decide("https://cdn.test/b", { "cdn.test": "allow" });
    assert.deepEqual(
      [allowed.kind, allowed.decision.holder, allowed.decision.answer],
      ["follow", "config", "followed"],
    );
    const denied = decide("https://cdn.test/b", { "cdn.test": "deny" });
    assert.deepEqual([denied.kind, denied.decision.answer], ["refused", "refused"]);
    assert.match(denied.kind === "refused" ? denied.reason : "", /web:cdn\.test is a new request, denied/);
    const asks = decide("https://cdn.test/b");
    assert.deepEqual([asks.kind, asks.decision.answer], ["hand back", "handed back"]);
    assert.equal(asks.kind === "hand back" && asks.next.host, "cdn.test");
    // Rules name hosts, not ports: another port on the same host is the same request.
    assert.equal(decide("https://docs.test:8443/b").kind, "follow");
  });

  it("no URL, another scheme, or too many redirects: refused by code, whatever the rules", () => {
    for (const [location, why] of [
      ["http://[::1", /which is no URL/],
      ["file:///etc/passwd", /only http and https/],
      ["javascript:alert(1)", /only http and https/],
    ] as const) {
      const got = decide(location, { "*": "allow" });
      assert.deepEqual([got.kind, got.decision.holder], ["refused", "code"], location);
      assert.match(got.kind === "refused" ? got.reason : "", why);
    }
    const many = decide("/b", { "*": "allow" }, MAX_REDIRECTS);
    assert.match(many.kind === "refused" ? many.reason : "", /more than 5 redirects/);
  });
});

describe("following redirects", () => {
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? "/";
      if (path === "/page") return res.writeHead(200, { "content-type": "text/plain" }).end("arrived");
      if (path === "/same") return res.writeHead(302, { location: "/page" }).end();
      if (path === "/metadata") return res.writeHead(301, { location: "http://169.254.169.254/latest/" }).end();
      if (path === "/elsewhere") return res.writeHead(302, { location: `http://other.test:${port}/page` }).end();
      if (path === "/loop") return res.writeHead(302, { location: "/loop" }).end();
      if (path === "/file") return res.writeHead(302, { location: "file:///etc/passwd" }).end();
      if (path === "/big") return res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(100_000));
      if (path === "/slow") return; // never answers
      if (path === "/gz") {
        const body = gzipSync("squeezed ".repeat(1000));
        return res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" }).end(body);
      }
      res.writeHead(404).end("nothing here");
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  const limits = (ms = 5000, maxBytes = 1024 * 1024) => ({
    connectMs: 2000,
    maxBytes,
    signal: AbortSignal.timeout(ms),
  });
  const url = (path: string, host = "127.0.0.1") => new URL(`http://${host}:${port}${path}`);

  it("follows a redirect on the same host, checking the address of every hop", async () => {
    const web = reach({ "127.0.0.1": "allow" }, ["127.0.0.1"]);
    const got = await follow(url("/same"), limits(), { web });
    assert.equal(got.kind, "response");
    assert.equal(got.kind === "response" && got.response.body.toString(), "arrived");
    assert.deepEqual(got.hops, [url("/same").href, url("/page").href]);
    assert.deepEqual(
      web.decisions.map((d) => [d.seat, d.answer, d.subject?.address]),
      [
        ["web.address", "allowed", "127.0.0.1"],
        ["web.redirect", "followed", undefined],
        ["web.address", "allowed", "127.0.0.1"],
      ],
    );
  });

  it("a redirect to the metadata address is refused before connecting, even when the rules allow every host", async () => {
    const web = reach({ "*": "allow", "127.0.0.1": "allow" }, ["127.0.0.1"]);
    const got = await follow(url("/metadata"), limits(), { web });
    assert.equal(got.kind, "refused");
    assert.match(got.kind === "refused" ? got.reason : "", /169\.254\.169\.254 is cloud metadata/);
    assert.equal(web.decisions.at(-1)?.answer, "refused");
    assert.equal(web.decisions.at(-1)?.holder, "code");
  });

  it("a redirect to another host the rules do not allow outright is handed back, not followed", async () => {
    const web = reach({ "127.0.0.1": "allow" }, ["127.0.0.1"]);
    const got = await follow(url("/elsewhere"), limits(), { web, resolve: local });
    assert.equal(got.kind, "redirect");
    assert.equal(got.kind === "redirect" && got.to.host, `other.test:${port}`);
    assert.match(got.kind === "redirect" ? got.reason : "", /web:other\.test is a new request, not allowed outright/);
    const denied = await follow(url("/elsewhere"), limits(), {
      web: reach({ "127.0.0.1": "allow", "other.test": "deny" }, ["127.0.0.1"]),
    });
    assert.equal(denied.kind, "refused");
  });

  it("another host the rules allow is followed, its address checked again (a private one needs its name)", async () => {
    const web = reach({ "127.0.0.1": "allow", "other.test": "allow" }, ["127.0.0.1", "other.test"]);
    const got = await follow(url("/elsewhere"), limits(), { web, resolve: local });
    assert.equal(got.kind, "response");
    // The first host is named; the one it redirects to is allowed only by a wildcard.
    const wildcard = reach({ "*": "allow" }, ["start.test"]);
    const refused = await follow(url("/elsewhere", "start.test"), limits(), { web: wildcard, resolve: local });
    assert.equal(refused.kind, "refused");
    assert.match(refused.kind === "refused" ? refused.reason : "", /127\.0\.0\.1 is loopback/);
  });

  it("connects to the checked address, never to a new lookup (a name no DNS knows still reaches it)", async () => {
    const web = reach({ "rebind.test": "allow" }, ["rebind.test"]);
    let lookups = 0;
    const resolve = async () => {
      lookups++;
      return { addresses: [{ address: "127.0.0.1", family: 4 as const }] };
    };
    const got = await follow(url("/page", "rebind.test"), limits(), { web, resolve });
    assert.equal(got.kind === "response" && got.address, "127.0.0.1");
    assert.equal(lookups, 1);
  });

  it("stops after MAX_REDIRECTS, and never follows a redirect to another scheme", async () => {
    const web = reach({ "127.0.0.1": "allow" }, ["127.0.0.1"]);
    const loop = await follow(url("/loop"), limits(), { web });
    assert.equal(loop.kind, "refused");
    assert.equal(loop.hops.length, MAX_REDIRECTS + 1);
    const file = await follow(url("/file"), limits(), { web });
    assert.equal(file.kind, "refused");
    assert.match(file.kind === "refused" ? file.reason : "", /file:/);
  });

  it("reads at most maxBytes, and a server that never answers ends at the deadline", async () => {
    const web = reach({ "127.0.0.1": "allow" }, ["127.0.0.1"]);
    const big = await follow(url("/big"), limits(5000, 1000), { web });
    assert.equal(big.kind === "response" && big.response.body.length, 1000);
    assert.equal(big.kind === "response" && big.response.truncated, true);
    const slow = await follow(url("/slow"), limits(300), { web });
    assert.equal(slow.kind, "failed");
  });

  it("a compressed body is read decoded, the cap counting decoded bytes", async () => {
    const web = reach({ "127.0.0.1": "allow" }, ["127.0.0.1"]);
    const whole = await follow(url("/gz"), limits(), { web });
    assert.equal(whole.kind === "response" && whole.response.body.toString(), "squeezed ".repeat(1000));
    const cut = await follow(url("/gz"), limits(5000, 100), { web });
    assert.equal(cut.kind === "response" && cut.response.body.length, 100);
    assert.equal(cut.kind === "response" && cut.response.truncated, true);
  });

  it("with no rules to ask, a private address is never reached", async () => {
    const got = await follow(url("/page"), limits());
    assert.equal(got.kind, "refused");
  });
});
