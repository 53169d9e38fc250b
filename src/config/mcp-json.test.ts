// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the syntax under test, not a template slip
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { loadConfig } from "./load.js";
import { expandVariables, translateMcpJson } from "./mcp-json.js";

describe("expandVariables", () => {
  it("makes ${VAR} a bosun {env:} reference (so the repository's reference rules apply); ${VAR:-d} falls back when unset or empty", () => {
    assert.equal(expandVariables("--token=${TOKEN}", {}), "--token={env:TOKEN}");
    assert.equal(expandVariables("${PORT:-8080}", {}), "8080");
    assert.equal(expandVariables("${PORT:-8080}", { PORT: "" }), "8080");
    assert.equal(expandVariables("${PORT:-8080}", { PORT: "9" }), "{env:PORT}");
    assert.equal(expandVariables("$HOME and ${1BAD}", {}), "$HOME and ${1BAD}");
  });
});

describe("translateMcpJson", () => {
  it("translates stdio and http/sse servers; lists bad names, bad entries and unknown keys with why", () => {
    const out = translateMcpJson(
      {
        mcpServers: {
          notes: { command: "node", args: ["s.mjs", "${DIR:-notes}"], env: { KEY: "${KEY}" }, cwd: "x" },
          web: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
          old: { type: "sse", url: "https://example.com/sse" },
          plain: { url: "https://example.com/plain" },
          "bad name": { command: "x" },
          broken: { command: 3 },
          mixed: { type: "http", url: "https://x.test", command: "y" },
          ftp: { type: "http", url: "ftp://x.test" },
        },
        other: true,
      },
      {},
    );
    assert.deepEqual(out.data, {
      mcp: {
        notes: { command: "node", args: ["s.mjs", "notes"], env: { KEY: "{env:KEY}" } },
        web: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer {env:TOKEN}" } },
        old: { type: "sse", url: "https://example.com/sse" },
        plain: { type: "http", url: "https://example.com/plain" },
      },
    });
    assert.deepEqual(
      out.skipped.map((s) => `${s.key}: ${s.reason}`),
      [
        "other: not read: bosun reads mcpServers only",
        "mcpServers.notes.cwd: not a key bosun reads",
        "mcpServers.bad name: an MCP server name may hold letters, digits, _ and -",
        "mcpServers.broken: command must be a non-empty string",
        "mcpServers.mixed: a http server takes url, not command",
        "mcpServers.ftp: url must be an http(s) URL",
      ],
    );
  });
  it("is not fatal for a document that is not an object", () => {
    assert.deepEqual(translateMcpJson([1], {}).data, {});
  });
});

describe("loadConfig: .mcp.json", () => {
  it("is a project layer beside bosun.json, with origins naming the file and line; unset ${VAR} leaves the server out", () => {
    const root = mkdtempSync(join(tmpdir(), "bosun-mcpjson-"));
    mkdirSync(join(root, ".git"));
    writeFileSync(
      join(root, ".mcp.json"),
      JSON.stringify(
        { mcpServers: { a: { command: "node", args: ["a.mjs"] }, b: { command: "${NOT_SET_ANYWHERE}" } } },
        null,
        2,
      ),
    );
    writeFileSync(join(root, "bosun.json"), JSON.stringify({ mcp: { c: { command: "mine" } } }));
    const loaded = loadConfig({ cwd: root, env: { BOSUN_HOME: join(root, "home") } });
    assert.deepEqual(loaded.config.mcp?.a, { command: "node", args: ["a.mjs"] });
    assert.equal(loaded.config.mcp?.b, undefined);
    assert.equal(loaded.origins.get("mcp.c.command")?.file, join(root, "bosun.json"));
    const origin = loaded.origins.get("mcp.a.command");
    assert.equal(origin?.layer, "project");
    assert.equal(origin?.file, join(root, ".mcp.json"));
    assert.equal(origin?.line, 4);
    assert.deepEqual(loaded.mcpJson?.servers, ["a", "b"]);
    assert.ok(loaded.unresolved.some((u) => /NOT_SET_ANYWHERE.*the MCP server b is left out/.test(u.reason)));
  });
});
