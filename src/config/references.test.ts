import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isCredentialKey, repositoryEnvRule, resolveReferences } from "./references.js";

describe("resolveReferences", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "bosun-config-refs-"));
    writeFileSync(join(dir, "key.txt"), "file-secret\n");
    writeFileSync(join(dir, "crlf.txt"), "crlf-secret\r\n");
    writeFileSync(join(dir, "two-lines.txt"), "one\ntwo\n\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const env = { KEY: "env-secret", EMPTY: "", A: "a", B: "b" };

  it("replaces {env:NAME} and keeps the text as written", () => {
    const { data, substitutions } = resolveReferences({ p: { apiKey: "{env:KEY}" } }, dir, env);
    assert.deepEqual(data, { p: { apiKey: "env-secret" } });
    assert.deepEqual([...substitutions], [["p.apiKey", { raw: "{env:KEY}" }]]);
  });

  it("replaces {file:path} relative to the base folder, dropping one final newline", () => {
    const { data } = resolveReferences(
      { a: "{file:key.txt}", b: "{file:crlf.txt}", c: "{file:two-lines.txt}", d: `{file:${join(dir, "key.txt")}}` },
      dir,
      env,
    );
    assert.deepEqual(data, { a: "file-secret", b: "crlf-secret", c: "one\ntwo\n", d: "file-secret" });
  });

  it("is linear on a long value of many unclosed references, and still resolves the closed ones", () => {
    const started = performance.now();
    const { data } = resolveReferences({ a: `${"{env:".repeat(200_000)}{env:A}`, b: "x".repeat(5_000_000) }, dir, env);
    // With a name of [^}]+ each try ran to the end of the value: 20 s for this one.
    assert.ok(performance.now() - started < 5_000, `${Math.round(performance.now() - started)} ms`);
    assert.equal((data as { a: string }).a, `${"{env:".repeat(200_000)}a`);
  });

  it("keeps every key and its order where nothing is resolved, and the keys around a resolved one", () => {
    const layer = { z: 1, m: { q: ["x"], b: "{env:B}", c: "c" }, a: [1, { k: "{env:A}" }] };
    const { data } = resolveReferences(layer, dir, env);
    assert.deepEqual(data, { z: 1, m: { q: ["x"], b: "b", c: "c" }, a: [1, { k: "{env:A}" }] });
    assert.deepEqual(Object.keys(data as object), ["z", "m", "a"]);
    assert.deepEqual(Object.keys((data as { m: object }).m), ["q", "b", "c"]);
    assert.deepEqual(layer.m.b, "{env:B}", "the layer as written is left as it was");
  });

  it("trims space around the reference name", () => {
    assert.deepEqual(resolveReferences({ a: "{env: KEY }", b: "{file: key.txt }" }, dir, env).data, {
      a: "env-secret",
      b: "file-secret",
    });
  });

  it("replaces several references in one string and text around them", () => {
    const { data, substitutions } = resolveReferences({ h: "Bearer {env:A}.{env:B}" }, dir, env);
    assert.deepEqual(data, { h: "Bearer a.b" });
    assert.equal(substitutions.get("h")?.raw, "Bearer {env:A}.{env:B}");
  });

  it("treats a set but empty variable as resolved to the empty string", () => {
    const { data, substitutions } = resolveReferences({ a: "x{env:EMPTY}y" }, dir, env);
    assert.deepEqual(data, { a: "xy" });
    assert.equal(substitutions.get("a")?.unresolved, undefined);
  });

  it("resolves inside arrays, keeping the whole array as written", () => {
    const { data, substitutions } = resolveReferences({ list: ["{env:A}/m", "plain", 3] }, dir, env);
    assert.deepEqual(data, { list: ["a/m", "plain", 3] });
    assert.deepEqual(substitutions.get("list")?.raw, ["{env:A}/m", "plain", 3]);
  });

  it("drops a leaf whose variable is unset or whose file is missing, and says why", () => {
    const { data, substitutions } = resolveReferences(
      { keep: "x", p: { a: "{env:NOPE}", b: "pre-{file:missing.txt}" }, list: ["{env:NOPE}"] },
      dir,
      env,
    );
    assert.deepEqual(data, { keep: "x", p: {} });
    assert.deepEqual(substitutions.get("p.a"), {
      raw: "{env:NOPE}",
      unresolved: "environment variable NOPE is not set",
    });
    assert.deepEqual(substitutions.get("p.b"), {
      raw: "pre-{file:missing.txt}",
      unresolved: "file missing.txt cannot be read",
    });
    assert.equal(substitutions.get("list")?.unresolved, "environment variable NOPE is not set");
  });

  it("reports the first unresolved reference of a string that has several", () => {
    const { substitutions } = resolveReferences({ a: "{env:FIRST}{env:SECOND}" }, dir, env);
    assert.equal(substitutions.get("a")?.unresolved, "environment variable FIRST is not set");
  });

  it("leaves text without references, numbers, booleans and null untouched and unrecorded", () => {
    const input = { a: "plain {not a ref} {env:}", n: 1, t: true, z: null, o: { s: "env:KEY" } };
    const { data, substitutions } = resolveReferences(input, dir, env);
    assert.deepEqual(data, input);
    assert.equal(substitutions.size, 0);
  });

  it("records keys with dots in the printed form", () => {
    const { substitutions } = resolveReferences({ models: { "gpt-4.1": { k: "{env:A}" } } }, dir, env);
    assert.deepEqual([...substitutions.keys()], ['models["gpt-4.1"].k']);
  });

  it("does not change its input", () => {
    const input = { a: "{env:KEY}", list: ["{env:A}"] };
    resolveReferences(input, dir, env);
    assert.deepEqual(input, { a: "{env:KEY}", list: ["{env:A}"] });
  });
});

describe("a repository's {env:} of a withheld variable", () => {
  const env = { ANTHROPIC_API_KEY: "sk-SECRET", HOME: "/home/me" };
  const rules = { envRefusal: repositoryEnvRule((name) => name === "ANTHROPIC_API_KEY") };

  it("expands only into credential keys: a provider's apiKey, baseURL and headers, an MCP server's env", () => {
    const { data, substitutions } = resolveReferences(
      {
        provider: { p: { apiKey: "{env:ANTHROPIC_API_KEY}", headers: { "x-key": "{env:ANTHROPIC_API_KEY}" } } },
        mcp: { m: { command: "m", env: { K: "{env:ANTHROPIC_API_KEY}" }, args: ["{env:ANTHROPIC_API_KEY}"] } },
        agent: { a: { prompt: "{env:ANTHROPIC_API_KEY}", description: "home {env:HOME}" } },
      },
      "/",
      env,
      rules,
    );
    assert.deepEqual(data, {
      provider: { p: { apiKey: "sk-SECRET", headers: { "x-key": "sk-SECRET" } } },
      mcp: { m: { command: "m", env: { K: "sk-SECRET" } } },
      agent: { a: { description: "home /home/me" } },
    });
    assert.match(
      substitutions.get("agent.a.prompt")?.unresolved ?? "",
      /^environment variable ANTHROPIC_API_KEY is withheld/,
    );
    assert.match(substitutions.get("mcp.m.args")?.unresolved ?? "", /withheld/);
  });

  it("knows the credential keys exactly", () => {
    assert.equal(isCredentialKey(["provider", "p", "apiKey"]), true);
    assert.equal(isCredentialKey(["provider", "p", "baseURL"]), true);
    assert.equal(isCredentialKey(["provider", "p", "headers", "h"]), true);
    assert.equal(isCredentialKey(["mcp", "m", "env", "K"]), true);
    assert.equal(isCredentialKey(["provider", "p", "models", "apiKey"]), false);
    assert.equal(isCredentialKey(["mcp", "m", "args"]), false);
    assert.equal(isCredentialKey(["mcp", "m", "command"]), false);
    assert.equal(isCredentialKey(["agent", "a", "prompt"]), false);
  });
});
