import assert from "node:assert/strict";
import { existsSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { OriginRow } from "../../src/config/display.js";
import { MAX_NESTING } from "../../src/config/positions.js";
import { startScenario } from "../support/scenario.js";
import { createWorkspace, type RunResult, type Workspace } from "../support/workspace.js";

/**
 * Config at scale, through the real binary: huge and deep files load in linear time or fail
 * with a clear error. The bounds are generous for a loaded machine and still far from what the
 * quadratic loader took (10,000 keys: 9 s; 160,000 keys: most of an hour).
 */
let ws: Workspace;

beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.cleanup());

/** Writes a file of the repository; its path as bosun names it (through links, as on macOS). */
const write = (path: string, content: string) => realpathSync(ws.write(path, content));

const DEEP = `nesting deeper than ${MAX_NESTING} levels`;
const LIMIT = `bosun reads config up to ${MAX_NESTING} levels deep`;

async function timed(run: Promise<RunResult>): Promise<RunResult & { seconds: number }> {
  const started = performance.now();
  const result = await run;
  return { ...result, seconds: (performance.now() - started) / 1000 };
}

function ok(result: RunResult): RunResult {
  assert.equal(result.code, 0, `exit ${result.code}\nstderr: ${result.stderr.slice(0, 2000)}`);
  return result;
}

/** Exit 2, one clear message, no stack, nothing on stdout, no database created. */
function assertConfigError(result: RunResult, message: string): void {
  assert.equal(result.code, 2, `exit ${result.code}\nstderr: ${result.stderr.slice(0, 2000)}`);
  assert.equal(result.stdout, "");
  assert.equal(result.stderr, `bosun: ${message}\n`);
  assert.equal(existsSync(join(ws.home, "data")), false, "data folder was created");
}

// A regression to quadratic time fails the test instead of holding the suite for an hour.
const BOUND = { timeout: 120_000 };

/** `permission.shell` with n patterns, one a line: key i stands on line i + 4. */
function manyRules(n: number, effect = "deny"): string {
  const rules = Array.from({ length: n }, (_, i) => `      "tool-${i} *": "${effect}"`);
  return `{\n  "permission": {\n    "shell": {\n${rules.join(",\n")}\n    }\n  }\n}\n`;
}

describe("bosun config: huge config files", () => {
  it("loads 160,000 keys in linear time, each with its own line", BOUND, async () => {
    const file = write("bosun.json", manyRules(160_000));
    const result = await timed(ws.run(["config", "--origin", "--json"]));
    ok(result);
    assert.ok(result.seconds < 20, `took ${result.seconds.toFixed(1)} s`);
    const rows = JSON.parse(result.stdout) as OriginRow[];
    const rules = rows.filter((row) => row.key.startsWith("permission.shell"));
    assert.equal(rules.length, 160_000);
    for (const i of [0, 1, 79_999, 159_999]) {
      assert.deepEqual(rules[i], {
        key: `permission.shell["tool-${i} *"]`,
        value: "deny",
        layer: "project",
        source: file,
        file,
        line: i + 4,
      });
    }
  });

  it("loads 10 MB of long string values quickly", BOUND, async () => {
    const agent = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`a${i}`, { description: `agent ${i}`, prompt: "word ".repeat(20_000) }]),
    );
    writeFileSync(join(ws.home, "bosun.json"), JSON.stringify({ agent }, null, 2));
    const result = await timed(ws.run(["config"]));
    ok(result);
    assert.ok(result.seconds < 10, `took ${result.seconds.toFixed(1)} s`);
    const shown = JSON.parse(result.stdout) as { agent: Record<string, { prompt: string }> };
    assert.equal(Object.keys(shown.agent).length, 100);
    assert.equal(shown.agent.a99?.prompt.length, 100_000);
  });

  it("reads a huge single line, and names line and column of a syntax error at its end", BOUND, async () => {
    const shell = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`tool-${i} *`, "deny"]));
    const line = JSON.stringify({ permission: { shell } });
    const file = write("bosun.json", line);
    const rows = JSON.parse(ok(await timed(ws.run(["config", "--origin", "--json"]))).stdout) as OriginRow[];
    assert.equal(rows.find((row) => row.key === 'permission.shell["tool-99999 *"]')?.line, 1);
    writeFileSync(file, `${line.slice(0, -1)},`);
    const broken = await timed(ws.run(["config"]));
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, new RegExp(`^bosun: ${file}:1:${line.length + 1}: syntax error: `));
    assert.ok(broken.seconds < 10, `took ${broken.seconds.toFixed(1)} s`);
  });

  it("names a few of 160,000 unknown keys in BOSUN_CONFIG's file and counts the rest", BOUND, async () => {
    const keys = Array.from({ length: 160_000 }, (_, i) => `  "unknown-${i}": 1`);
    const file = write("other/config.json", `{\n${keys.join(",\n")}\n}`);
    const result = await timed(ws.run(["config"], { env: { BOSUN_CONFIG: file } }));
    assert.equal(result.code, 2, result.stderr.slice(0, 2000));
    assert.ok(result.seconds < 20, `took ${result.seconds.toFixed(1)} s`);
    const lines = result.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 6, result.stderr);
    assert.match(lines[0] ?? "", new RegExp(`^bosun: ${file}:2: unknown key "unknown-0" \\(known keys here: `));
    assert.equal(lines[4], `${file}:6: unknown key "unknown-4"`);
    assert.equal(lines[5], `${file}:1: and 159995 more unknown keys at the top level`);
  });
});

describe("bosun config: nesting deeper than the limit", () => {
  const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

  it("refuses 100,000 levels in the repository's bosun.json with a clear error, no stack", async () => {
    const file = write("bosun.json", `{\n  "agent":\n    ${objects(100_000)}\n}`);
    const result = await ws.run(["config"]);
    assertConfigError(result, `${file}:3: ${DEEP} at key agent.a.a.a.a.a…; ${LIMIT}`);
    assert.doesNotMatch(result.stderr, /RangeError|\n\s+at /);
  });

  it("refuses 100,000 nested arrays in the global config, and in BOSUN_CONFIG_CONTENT", async () => {
    const global = join(ws.home, "bosun.json");
    writeFileSync(global, `{ "fallback": ${"[".repeat(100_000)}${"]".repeat(100_000)} }`);
    assertConfigError(await ws.run(["config"]), `${global}:1: ${DEEP} at key fallback[0][0][0][0][0]…; ${LIMIT}`);
    writeFileSync(global, "{}");
    // An environment variable holds at most 128 kB: 30,000 levels.
    const content = `{\n"hooks": ${"[".repeat(30_000)}${"]".repeat(30_000)}}`;
    assertConfigError(
      await ws.run(["config"], { env: { BOSUN_CONFIG_CONTENT: content } }),
      `BOSUN_CONFIG_CONTENT:2: ${DEEP} at key hooks[0][0][0][0][0]…; ${LIMIT}`,
    );
  });

  it(`reads a file ${MAX_NESTING} levels deep and judges it by the schema`, async () => {
    const file = write("bosun.json", `{ "agent": ${objects(MAX_NESTING - 1)} }`);
    const result = await ws.run(["config"]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`^bosun: ${file}:1: unknown key "agent\\.a\\.a"`));
    assert.doesNotMatch(result.stderr, new RegExp(DEEP));
  });
});

describe("bosun run: a huge config", () => {
  it("runs a turn with 20,000 rules in the repository's config", BOUND, async () => {
    const s = await startScenario({ rules: [{ match: { request: 1 }, reply: { text: "All done." } }] });
    try {
      s.ws.write("bosun.json", manyRules(20_000));
      const result = await timed(s.run(["run", "hello"]));
      assert.equal(result.code, 0, result.stderr.slice(0, 2000));
      assert.equal(result.stdout, "All done.\n");
      // Each of three loads and the rules walked the text per key: over a minute here before.
      assert.ok(result.seconds < 30, `took ${result.seconds.toFixed(1)} s`);
      assert.equal(s.server.requests.length, 1);
    } finally {
      await s.close();
    }
  });
});
