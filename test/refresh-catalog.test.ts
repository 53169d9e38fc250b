import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { refreshCatalog } from "../scripts/refresh-catalog.js";
import { CatalogDataSchema } from "../src/model/catalog-schema.js";

/** A cut of models.dev's api.json: bosun's providers, one it does not have, and fields it ignores. */
const FIXTURE = {
  anthropic: {
    id: "anthropic",
    env: ["ANTHROPIC_API_KEY"],
    models: {
      "claude-sonnet-4-5": {
        id: "claude-sonnet-4-5",
        name: "Claude Sonnet 4.5",
        attachment: true,
        reasoning: true,
        tool_call: true,
        cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
        limit: { context: 200000, output: 64000 },
        modalities: { input: ["text", "image", "pdf"], output: ["text"] },
        release_date: "2025-09-29",
      },
    },
  },
  openai: {
    models: {
      "gpt-5": { limit: { context: 400000, output: 128000 }, cost: { input: 1.25, output: 10 }, tool_call: true },
    },
  },
  google: { models: { "gemini-9": { limit: { context: 2000000, output: 65536 } } } },
  // models.dev's name for bosun's bedrock; azure has no built-in provider but is a service type.
  "amazon-bedrock": {
    models: { "us.anthropic.claude-sonnet-4-5-20250929-v1:0": { limit: { context: 200000, output: 64000 } } },
  },
  azure: { models: { "gpt-5": { limit: { context: 272000, output: 128000 }, tool_call: true } } },
  deepseek: { models: { "deepseek-chat": { limit: { context: 64000, output: 8000 } } } },
};

const routes: Record<string, { status: number; body: string }> = {
  "/api.json": { status: 200, body: JSON.stringify(FIXTURE) },
  "/truncated.json": { status: 200, body: JSON.stringify(FIXTURE).slice(0, 200) },
  "/wrong-shape.json": {
    status: 200,
    body: JSON.stringify({ anthropic: { models: { x: { limit: { context: "big" } } } } }),
  },
  "/nothing-of-ours.json": { status: 200, body: JSON.stringify({ deepseek: FIXTURE.deepseek }) },
  "/error.json": { status: 503, body: "busy" },
};

let server: Server;
let base: string;
let dir: string;
const ORIGINAL = `${JSON.stringify({ updated: "2020-01-01", source: "before", providers: { anthropic: { models: {} } } })}\n`;

before(async () => {
  server = createServer((req, res) => {
    const route = routes[req.url ?? ""] ?? { status: 404, body: "" };
    res.writeHead(route.status, { "content-type": "application/json" }).end(route.body);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), "bosun-refresh-"));
});
after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

function freshOut(name: string): string {
  const out = join(dir, name);
  writeFileSync(out, ORIGINAL);
  return out;
}

describe("scripts/refresh-catalog", () => {
  it("rewrites the data file from a models.dev response: bosun's providers only, the fields it reads, the date", async () => {
    const out = freshOut("ok.json");
    await refreshCatalog({ from: `${base}/api.json`, out, today: "2026-12-03" });
    const data = CatalogDataSchema.parse(JSON.parse(readFileSync(out, "utf8")));
    assert.equal(data.updated, "2026-12-03");
    assert.match(data.source, /127\.0\.0\.1.*models\.dev format/);
    assert.deepEqual(Object.keys(data.providers).sort(), ["anthropic", "azure", "bedrock", "google", "openai"]);
    assert.ok(data.providers.bedrock?.models["us.anthropic.claude-sonnet-4-5-20250929-v1:0"]);
    assert.deepEqual(data.providers.anthropic?.models["claude-sonnet-4-5"], {
      limit: { context: 200000, output: 64000 },
      cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
      modalities: { input: ["text", "image", "pdf"], output: ["text"] },
      tool_call: true,
      reasoning: true,
    });
  });

  it("reads a file given with --from", async () => {
    const source = join(dir, "api.json");
    writeFileSync(source, JSON.stringify(FIXTURE));
    const out = freshOut("from-file.json");
    await refreshCatalog({ from: source, out, today: "2026-12-04" });
    assert.equal(JSON.parse(readFileSync(out, "utf8")).updated, "2026-12-04");
  });

  for (const [route, why] of [
    ["/truncated.json", /not JSON/],
    ["/wrong-shape.json", /not the expected shape at providers\.anthropic\.models\.x\.limit/],
    ["/nothing-of-ours.json", /none of bosun's providers/],
    ["/error.json", /answered 503/],
  ] as const) {
    it(`refuses ${route} and leaves the file untouched`, async () => {
      const out = freshOut(`refused-${route.slice(1)}`);
      await assert.rejects(refreshCatalog({ from: `${base}${route}`, out }), why);
      assert.equal(readFileSync(out, "utf8"), ORIGINAL);
    });
  }

  it("as a command: exit 1 with the reason on a malformed response, exit 2 on a bad flag", async () => {
    const out = freshOut("cli.json");
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/refresh-catalog.ts", ...args]).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => error,
      );
    const refused = await run(["--from", `${base}/truncated.json`, "--out", out]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /refused, .*cli\.json unchanged: not JSON/);
    assert.equal(readFileSync(out, "utf8"), ORIGINAL);
    const bad = await run(["--form", "x"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown or incomplete flag --form/);
  });
});
