import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { loadConfig } from "../config/load.js";
import { projectLoosening, withoutLoosening } from "../permission/trust/project-trust.js";
import { findProvider } from "./providers.js";

describe("npm providers", () => {
  it("a repository's npm package is a loosening: left out untrusted, the provider says how to allow it", () => {
    const repo = mkdtempSync(join(tmpdir(), "bosun-npm-"));
    mkdirSync(join(repo, ".git"));
    writeFileSync(join(repo, "bosun.json"), JSON.stringify({ provider: { evil: { type: "npm", npm: "evil-pkg" } } }));
    const env = { BOSUN_HOME: join(repo, "home") };
    const loosening = projectLoosening(loadConfig({ cwd: repo, env }));
    assert.deepEqual(loosening?.items, ["provider evil type", "provider evil npm"]);
    const untrusted = loadConfig({ cwd: repo, env, filterProject: withoutLoosening });
    assert.equal(untrusted.config.provider?.evil?.npm, undefined);
    const provider = findProvider("evil", untrusted, {});
    assert.match(provider?.problem ?? "", /has no type.*apply only when you trust its config \(--trust-project\)/);
  });

  it("a repository changing the package of the person's own npm provider is a loosening too", () => {
    const repo = mkdtempSync(join(tmpdir(), "bosun-npm-"));
    mkdirSync(join(repo, ".git"));
    mkdirSync(join(repo, "home"));
    writeFileSync(join(repo, "home", "bosun.json"), JSON.stringify({ provider: { m: { type: "npm", npm: "good" } } }));
    writeFileSync(join(repo, "bosun.json"), JSON.stringify({ provider: { m: { npm: "evil-pkg" } } }));
    const env = { BOSUN_HOME: join(repo, "home") };
    assert.deepEqual(projectLoosening(loadConfig({ cwd: repo, env }))?.items, ["provider m npm"]);
    const untrusted = loadConfig({ cwd: repo, env, filterProject: withoutLoosening });
    assert.equal(findProvider("m", untrusted, {})?.settings.npm, "good");
  });

  it("redteam: a provider name with a dot does not hide a repository's npm package from trust", () => {
    // Its key prints as provider["my.prov"].npm: looked up as provider.my.prov.npm it had no origin, and loaded.
    const repo = mkdtempSync(join(tmpdir(), "bosun-npm-"));
    mkdirSync(join(repo, ".git"));
    writeFileSync(
      join(repo, "bosun.json"),
      JSON.stringify({ provider: { "my.prov": { type: "npm", npm: "evil-pkg" } } }),
    );
    const env = { BOSUN_HOME: join(repo, "home") };
    // Its key prints as provider["my.prov"].npm: the loosening is found under that name and left out untrusted.
    assert.deepEqual(projectLoosening(loadConfig({ cwd: repo, env }))?.items, [
      "provider my.prov type",
      "provider my.prov npm",
    ]);
    const untrusted = loadConfig({ cwd: repo, env, filterProject: withoutLoosening });
    assert.equal(findProvider("my.prov", untrusted, {})?.settings.npm, undefined);
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
    const provider = findProvider("m", configFrom({ provider: { m: { type: "npm", npm: "@ai-sdk/deepseek" } } }), {});
    assert.equal(provider?.problem, undefined);
    assert.equal(provider?.settings.npm, "@ai-sdk/deepseek");
    assert.equal(provider?.credentials.needed, false);
  });

  it("a package installed nowhere makes the provider unusable before any run, saying how to install it", () => {
    const home = mkdtempSync(join(tmpdir(), "bosun-npm-home-"));
    const config = configFrom({ provider: { m: { type: "npm", npm: "no-such-provider-pkg" } } });
    const provider = findProvider("m", config, { BOSUN_HOME: home });
    assert.equal(
      provider?.problem,
      `provider "m": npm package no-such-provider-pkg is not installed in bosun's node_modules or ${join(home, "providers", "node_modules")} (npm install --prefix ${join(home, "providers")} no-such-provider-pkg)`,
    );
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

  it("a region, location or resource name that would change the host is bad config, naming the key", () => {
    for (const [type, key, value] of [
      ["bedrock", "region", "x.attacker.example#"],
      ["vertex", "location", "attacker.example/"],
      ["vertex", "project", "p/../../x?"],
      ["azure", "resourceName", "attacker.example#"],
    ] as const) {
      const home = mkdtempSync(join(tmpdir(), "bosun-host-"));
      writeFileSync(join(home, "bosun.json"), JSON.stringify({ provider: { p: { type, [key]: value } } }));
      assert.throws(
        () => loadConfig({ cwd: home, env: { BOSUN_HOME: home } }),
        new RegExp(`provider\\.p\\.${key}.*must be`, "s"),
        `${type} ${key}`,
      );
    }
    const home = mkdtempSync(join(tmpdir(), "bosun-host-"));
    writeFileSync(
      join(home, "bosun.json"),
      JSON.stringify({ provider: { v: { type: "vertex", project: "example.com:my-project", location: "us-east5" } } }),
    );
    assert.equal(loadConfig({ cwd: home, env: { BOSUN_HOME: home } }).config.provider?.v?.location, "us-east5");
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
