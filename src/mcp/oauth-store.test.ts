import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { BosunOAuthProvider } from "./oauth-provider.js";
import {
  boundAddress,
  credentialFile,
  credentialFolder,
  readCredentials,
  removeCredentials,
  safeName,
  writeCredentials,
} from "./oauth-store.js";

const tokens = { access_token: "at", token_type: "bearer", refresh_token: "rt" };

describe("OAuth credential files", () => {
  let data: string;
  beforeEach(() => {
    data = mkdtempSync(join(tmpdir(), "bosun-oauth-store-"));
  });
  afterEach(() => rmSync(data, { recursive: true, force: true }));

  it("one file per server under the data folder's mcp-oauth, folder 0700 and file 0600, replaced whole", () => {
    const file = credentialFile(data, "docs", "https://mcp.example/mcp?token=abc");
    assert.equal(dirname(file.path), credentialFolder(data));
    assert.match(file.path, /\/mcp-oauth\/docs-[0-9a-f]{16}\.json$/);
    assert.equal(file.server, "https://mcp.example/mcp", "the query is never part of what is stored");
    writeCredentials(file, { tokens });
    writeCredentials(file, { tokens: { ...tokens, access_token: "at2" } });
    assert.equal(statSync(credentialFolder(data)).mode & 0o777, 0o700);
    assert.equal(statSync(file.path).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(credentialFolder(data)), [file.path.split("/").at(-1)], "no temporary file left");
    assert.equal(readCredentials(file)?.tokens?.access_token, "at2");
  });

  it("a name is made safe and the path checked to stay in the folder", () => {
    assert.equal(safeName("../../etc/passwd"), "______etc_passwd");
    assert.equal(safeName(""), "server");
    const file = credentialFile(data, "../../x", "https://a.example/mcp");
    assert.equal(dirname(file.path), credentialFolder(data));
    writeCredentials(file, { tokens });
    assert.equal(readCredentials(file)?.name, "../../x");
  });

  it("the address is part of the key: a server borrowing a name, pointing elsewhere, finds nothing", () => {
    writeCredentials(credentialFile(data, "github", "https://mcp.github.example/mcp"), { tokens });
    assert.equal(readCredentials(credentialFile(data, "github", "https://evil.example/mcp")), undefined);
    const borrowed = new BosunOAuthProvider(credentialFile(data, "github", "https://evil.example/mcp"), {
      kind: "run",
    });
    assert.equal(borrowed.tokens(), undefined);
    assert.throws(() => borrowed.clientInformation(), /needs sign-in: run `bosun mcp login github`/);
  });

  it("a damaged file, or one another server's record was copied into, counts as none", () => {
    const file = credentialFile(data, "docs", "https://a.example/mcp");
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, "{not json");
    assert.equal(readCredentials(file), undefined);
    writeFileSync(file.path, JSON.stringify({ name: "other", server: "https://a.example/mcp", tokens }));
    assert.equal(readCredentials(file), undefined);
  });

  it("a link put at a server's file is refused, never read through", () => {
    const file = credentialFile(data, "docs", "https://a.example/mcp");
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(join(data, "elsewhere.json"), JSON.stringify({ name: "docs", server: file.server, tokens }));
    symlinkSync(join(data, "elsewhere.json"), file.path);
    assert.throws(() => readCredentials(file), /changed after it was checked|link/);
    assert.throws(() => writeCredentials(file, { tokens }), /changed after it was checked|link/);
  });

  it("logout removes exactly that name's files, at every address, and says how many", () => {
    const one = credentialFile(data, "a", "https://one.example/mcp");
    const two = credentialFile(data, "a", "https://two.example/mcp");
    const other = credentialFile(data, "a-b", "https://one.example/mcp");
    for (const file of [one, two, other]) writeCredentials(file, { tokens });
    assert.equal(removeCredentials(data, "a"), 2);
    assert.equal(existsSync(one.path) || existsSync(two.path), false);
    assert.ok(existsSync(other.path), "server a-b's file stays");
    assert.equal(removeCredentials(data, "a"), 0);
    assert.equal(removeCredentials(join(data, "missing"), "a"), 0);
  });

  it("the bound address is the origin and path", () => {
    assert.equal(boundAddress("http://127.0.0.1:8080/mcp/?x=1#y"), "http://127.0.0.1:8080/mcp/");
  });
});
