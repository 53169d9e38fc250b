import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { expectDecision } from "../support/ledger.js";
import { startOAuthMcpServer } from "../support/mcp-oauth-server.js";
import { startScenario } from "../support/scenario.js";

const FETCHER = fileURLToPath(new URL("../support/open-url-fetch.mjs", import.meta.url));
const ACCESS_TTL_MS = 2000;
const script = {
  rules: [
    {
      match: { lastMessage: "secret?" },
      reply: { toolCalls: [{ id: "s", name: "mcp__guarded__secret", arguments: { who: "ada" } }] },
    },
    { reply: { text: "Done." } },
  ],
};

describe("OAuth for remote MCP servers (bosun mcp login / logout)", () => {
  it("no sign-in: needs sign-in, the run goes on; login stores tokens; runs use and refresh them; logout removes them", async () => {
    const remote = await startOAuthMcpServer({ accessTtlMs: ACCESS_TTL_MS });
    const s = await startScenario(script, { global: { mcp: { guarded: { url: remote.url } } } });
    const opened = join(s.ws.home, "opened.log");
    const env = { BOSUN_OPEN_URL_COMMAND: `${process.execPath} ${FETCHER}`, OPEN_URL_LOG: opened };
    const folder = join(s.ws.home, "data", "mcp-oauth");
    // What the model got last: the tool's result.
    const sent = () =>
      s.server.requests
        .at(-1)
        ?.normalized?.messages.map((m) => m.text)
        .join("\n") ?? "";
    try {
      // (a) A run never signs in: no browser, no registration, a clear message, and it goes on.
      const before = await s.run(["run", "hello"], { env });
      assert.equal(before.code, 0, before.stderr);
      assert.match(before.stderr, /MCP server "guarded" failed \(needs sign-in: run `bosun mcp login guarded`\)/);
      const failed = expectDecision(s.latest().decisions, "mcp.connect", "code", "needs sign-in");
      assert.equal(failed.reasons.find((r) => r.decisive)?.rule, "sign-in");
      assert.equal(existsSync(opened), false, "nothing was opened");
      assert.deepEqual([remote.counts.metadata, remote.counts.registered], [0, 0], "no authorization server was asked");

      // (b) The person signs in: the URL is printed and opened, the tokens stored owner-only.
      const login = await s.run(["mcp", "login", "guarded"], { env });
      assert.equal(login.code, 0, login.stderr);
      assert.match(login.stdout, /Open this address to sign in.*\n\s+http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
      assert.match(login.stdout, /Signed in to "guarded"; credentials saved in /);
      assert.match(readFileSync(opened, "utf8"), /\/authorize\?.*code_challenge=/);
      const [file, ...others] = readdirSync(folder);
      assert.ok(file && others.length === 0, "one credential file");
      assert.equal(statSync(folder).mode & 0o777, 0o700);
      assert.equal(statSync(join(folder, file)).mode & 0o777, 0o600);
      assert.ok(JSON.parse(readFileSync(join(folder, file), "utf8")).tokens.refresh_token);
      assert.deepEqual([remote.counts.registered, remote.counts.exchanged], [1, 1]);
      const metadataAtLogin = remote.counts.metadata;

      // (c) A run calls the server's tool with the stored token.
      const first = await s.run(["run", "--allow", "mcp:guarded/secret", "secret?"]);
      assert.equal(first.code, 0, first.stderr);
      assert.match(sent(), /the secret for ada is 42/);
      expectDecision(s.latest().decisions, "mcp.connect", "code", "connected · 1 tool");

      // bosun mcp list and test use the stored sign-in as a run does.
      const listed = await s.run(["mcp", "list"]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /guarded[\s\S]*connected · 1 tool/);

      // (d) Once the access token has expired, a run refreshes it and still works.
      await new Promise((resolve) => setTimeout(resolve, ACCESS_TTL_MS + 300));
      const later = await s.run(["run", "--allow", "mcp:guarded/secret", "secret?"]);
      assert.equal(later.code, 0, later.stderr);
      assert.match(sent(), /the secret for ada is 42/);
      assert.ok(remote.counts.refreshed >= 1, "the refresh token was used");
      assert.equal(remote.counts.authorized, 1, "no new sign-in");
      assert.equal(
        remote.counts.metadata,
        metadataAtLogin,
        "the refresh went to the authorization server found at sign-in",
      );

      // (e) Logout removes them and says so; a second one says there were none; runs need sign-in again.
      const logout = await s.run(["mcp", "logout", "guarded"]);
      assert.equal(logout.code, 0, logout.stderr);
      assert.match(logout.stdout, /Signed out of "guarded": stored credentials removed/);
      assert.deepEqual(readdirSync(folder), []);
      const again = await s.run(["mcp", "logout", "guarded"]);
      assert.match(again.stdout, /No stored credentials for "guarded"/);
      const after = await s.run(["run", "hello"]);
      assert.match(after.stderr, /needs sign-in/);
      assert.match((await s.run(["mcp", "list"])).stdout, /guarded[\s\S]*needs sign-in/);
    } finally {
      await s.close();
      await remote.close();
    }
  });

  it("a repository's server asking to sign in, allowed by the person, still only says needs sign-in", async () => {
    const remote = await startOAuthMcpServer();
    const s = await startScenario(script, { config: { mcp: { guarded: { url: remote.url } } } });
    const opened = join(s.ws.home, "opened.log");
    try {
      const env = { BOSUN_OPEN_URL_COMMAND: `${process.execPath} ${FETCHER}`, OPEN_URL_LOG: opened };
      const result = await s.run(["run", "--allow", "web:127.0.0.1", "hello"], { env });
      assert.equal(result.code, 0, result.stderr);
      expectDecision(s.latest().decisions, "mcp.connect", "code", "needs sign-in");
      assert.equal(existsSync(opened), false);
      assert.deepEqual([remote.counts.metadata, remote.counts.registered, remote.counts.authorized], [0, 0, 0]);
    } finally {
      await s.close();
      await remote.close();
    }
  });

  it("usage errors exit 2 with one line, never a stack trace", async () => {
    const s = await startScenario(script, { global: { mcp: { local: { command: "x" } } } });
    try {
      for (const [args, said] of [
        [["mcp", "login", "../x"], /"\.\.\/x" is not an MCP server name/],
        [["mcp", "login", "nope"], /no MCP server "nope" in config \(there are: local\)/],
        [["mcp", "login", "local"], /runs a command \(stdio\); only a url server signs in/],
        [["mcp", "logout", "nope"], /no MCP server "nope" in config, and no stored credentials/],
      ] as const) {
        const result = await s.run([...args]);
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, said);
        assert.doesNotMatch(result.stderr, /\n\s+at /);
      }
    } finally {
      await s.close();
    }
  });
});
