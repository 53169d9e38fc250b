import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { loadConfig } from "../config/load.js";
import { findProvider } from "./providers.js";

describe("npm providers", () => {
  it("a repository's config naming an npm package is refused, naming the file", () => {
    const repo = mkdtempSync(join(tmpdir(), "bosun-npm-"));
    mkdirSync(join(repo, ".git"));
    writeFileSync(join(repo, "bosun.json"), JSON.stringify({ provider: { evil: { type: "npm", npm: "evil-pkg" } } }));
    const loaded = loadConfig({ cwd: repo, env: { BOSUN_HOME: join(repo, "home") } });
    const provider = findProvider("evil", loaded, {});
    assert.match(provider?.problem ?? "", /a repository may not bring provider code/);
  });

  it("redteam: a provider name with a dot does not hide a repository's npm package from the refusal", () => {
    // Its key prints as provider["my.prov"].npm: looked up as provider.my.prov.npm it had no origin, and loaded.
    const repo = mkdtempSync(join(tmpdir(), "bosun-npm-"));
    mkdirSync(join(repo, ".git"));
    writeFileSync(
      join(repo, "bosun.json"),
      JSON.stringify({ provider: { "my.prov": { type: "npm", npm: "evil-pkg" } } }),
    );
    // Trusted (the type kept): a repository still may not bring code.
    const loaded = loadConfig({ cwd: repo, env: { BOSUN_HOME: join(repo, "home") } });
    const provider = findProvider("my.prov", loaded, {});
    assert.match(provider?.problem ?? "", /a repository may not bring provider code/);
  });

  it("redteam: no spelling of a path passes as a package name", () => {
    const home = mkdtempSync(join(tmpdir(), "bosun-npm-home-"));
    for (const npm of [
      "..",
      "../x",
      "@scope/..",
      "@../x",
      "a/../b",
      "./x",
      "/abs/x.js",
      "@a/b/c",
      "node:fs",
      "file:x",
      "X",
    ]) {
      writeFileSync(join(home, "bosun.json"), JSON.stringify({ provider: { p: { type: "npm", npm } } }));
      assert.throws(() => loadConfig({ cwd: home, env: { BOSUN_HOME: home } }), /must be an npm package name/, npm);
    }
  });

  it("redteam: a Node built-in's name is not a provider package (it would resolve to a file of the cwd)", () => {
    for (const npm of ["fs", "child_process"]) {
      const provider = findProvider("m", configFrom({ provider: { m: { type: "npm", npm } } }), {});
      assert.match(provider?.problem ?? "", /a Node built-in module/);
    }
  });

  it("the person's own config may name one; its credentials are the package's own", () => {
    const provider = findProvider("m", configFrom({ provider: { m: { type: "npm", npm: "@ai-sdk/mistral" } } }), {});
    assert.equal(provider?.problem, undefined);
    assert.equal(provider?.settings.npm, "@ai-sdk/mistral");
    assert.equal(provider?.credentials.needed, false);
  });

  it("a path in place of a package name is bad config, naming the key", () => {
    const home = mkdtempSync(join(tmpdir(), "bosun-npm-home-"));
    writeFileSync(
      join(home, "bosun.json"),
      JSON.stringify({ provider: { p: { type: "npm", npm: "../../tmp/evil.js" } } }),
    );
    assert.throws(
      () => loadConfig({ cwd: home, env: { BOSUN_HOME: home } }),
      /provider\.p\.npm.*must be an npm package name/s,
    );
  });

  it("bedrock credentials from the AWS key pair are named, never shown", () => {
    const env = {
      AWS_ACCESS_KEY_ID: "AKIA",
      AWS_SECRET_ACCESS_KEY: "s",
      AWS_SESSION_TOKEN: "t",
      AWS_REGION: "eu-west-1",
    };
    const provider = findProvider("bedrock", configFrom({}), env);
    assert.equal(provider?.credentials.source, "environment variables AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY");
    assert.deepEqual(provider?.envSettings, ["AWS_REGION=eu-west-1", "AWS_SESSION_TOKEN (set)"]);
  });
});
