import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type OAuthMcpServer, startOAuthMcpServer } from "../../test/support/mcp-oauth-server.js";
import { runAuthFor } from "./oauth.js";
import { signIn } from "./oauth-login.js";
import { credentialFile, readCredentials } from "./oauth-store.js";
import { isSignIn } from "./sign-in.js";

/** A browser that follows every redirect: the test server approves at once. */
const browser = async (url: URL) => {
  const response = await fetch(url);
  assert.equal(response.status, 200, await response.text());
};

async function callSecret(data: string, server: OAuthMcpServer): Promise<string> {
  const provider = runAuthFor(data)("guarded", { url: server.url });
  assert.ok(provider);
  const client = new Client({ name: "t", version: "0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }));
    const result = await client.callTool({ name: "secret", arguments: { who: "ada" } });
    return JSON.stringify(result.content);
  } finally {
    await client.close();
  }
}

describe("OAuth sign-in against the SDK's authorization server", () => {
  let data: string;
  let server: OAuthMcpServer;
  before(async () => {
    data = mkdtempSync(join(tmpdir(), "bosun-oauth-"));
    server = await startOAuthMcpServer({ accessTtlMs: 1500 });
  });
  after(async () => {
    await server.close();
    rmSync(data, { recursive: true, force: true });
  });

  it("without stored credentials a run's provider fails with needs sign-in, registering nothing", async () => {
    await assert.rejects(
      callSecret(data, server),
      (error) => isSignIn(error) && /bosun mcp login guarded/.test(String(error)),
    );
    assert.deepEqual([server.counts.metadata, server.counts.registered, server.counts.authorized], [0, 0, 0]);
  });

  it("login stores tokens owner-only; a run uses them, and refreshes an expired access token", async () => {
    const file = await signIn("guarded", { url: server.url }, { dataFolder: data, open: browser, waitMs: 10_000 });
    assert.equal(statSync(file.path).mode & 0o777, 0o600);
    assert.equal(statSync(join(data, "mcp-oauth")).mode & 0o777, 0o700);
    const stored = readCredentials(credentialFile(data, "guarded", server.url));
    assert.ok(stored?.tokens?.refresh_token);
    assert.match(await callSecret(data, server), /the secret for ada is 42/);
    assert.equal(server.counts.refreshed, 0);
    await new Promise((resolve) => setTimeout(resolve, 1700));
    assert.match(await callSecret(data, server), /the secret for ada is 42/);
    assert.equal(server.counts.refreshed, 1);
    assert.equal(
      readCredentials(credentialFile(data, "guarded", server.url))?.discovery?.authorizationServerUrl,
      new URL("/", server.url).href,
      "the authorization server found at sign-in is kept",
    );
    const renewed = readCredentials(credentialFile(data, "guarded", server.url));
    assert.notEqual(renewed?.tokens?.access_token, stored?.tokens?.access_token, "the new tokens were saved");
  });

  it("a refresh the server refuses leaves the run at needs sign-in, the dead tokens dropped", async () => {
    server.forgetTokens();
    await assert.rejects(callSecret(data, server), (error) => isSignIn(error));
    assert.equal(readCredentials(credentialFile(data, "guarded", server.url))?.tokens, undefined);
  });
});
