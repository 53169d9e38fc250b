import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { startScenario } from "../support/scenario.js";
import type { RunResult } from "../support/workspace.js";

/**
 * `bosun doctor` through the real binary: a healthy home against the scripted model server (a
 * reachable provider), then one fault at a time — a garbage database, a missing ripgrep, a missing
 * bubblewrap, an unreachable provider, a provider without its key. Run `npm run build` first.
 */

const done = { rules: [{ reply: { text: "All done." } }] };
// The machine's own keys must not make built-in providers part of the check.
const noKeys = { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GOOGLE_GENERATIVE_AI_API_KEY: "", GEMINI_API_KEY: "" };

function line(result: RunResult, check: string): string {
  const found = result.stdout.split("\n").find((l) => l.startsWith(`${check}: `));
  assert.ok(found, `no "${check}" line in:\n${result.stdout}`);
  return found;
}

function noStack(result: RunResult): void {
  assert.doesNotMatch(result.stdout + result.stderr, /internal error|\n\s+at |test-key/);
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test("a healthy home: every check ok, the scripted server reachable, exit 0; --json says the same", async () => {
  const s = await startScenario(done);
  try {
    assert.equal((await s.run(["run", "hello"])).code, 0);
    const result = await s.run(["doctor"], { env: noKeys });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    noStack(result);
    assert.match(line(result, "data folder"), /^data folder: ok \(.*\/data, writable, [\d.]+ [MG]iB free\)$/);
    assert.match(line(result, "database"), /^database: ok \(.*bosun\.db: integrity ok, schema \d+, 1 sessions\)$/);
    assert.match(line(result, "ripgrep"), /^ripgrep: ok \(ripgrep \d+\.\d+/);
    assert.match(line(result, "sandbox"), /^sandbox: ok \(/);
    const userConfig = join(s.ws.home, "bosun.json");
    const keyLine =
      readFileSync(userConfig, "utf8")
        .split("\n")
        .findIndex((l) => l.includes('"apiKey"')) + 1;
    assert.equal(
      line(result, "provider scripted"),
      `provider scripted: ok (${s.server.baseURL}/models answers (HTTP 200); credential from provider.scripted.apiKey (${userConfig}:${keyLine}))`,
    );
    assert.match(line(result, "provider anthropic"), /^provider anthropic: skipped: not set up: no credential/);
    assert.match(result.stdout, /\nall checks passed\n$/);

    const json = await s.run(["doctor", "--json"], { env: noKeys });
    assert.equal(json.code, 0);
    const report = JSON.parse(json.stdout) as { ok: boolean; checks: Array<{ check: string; status: string }> };
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.checks.filter((c) => c.status === "problem"),
      [],
    );
    assert.ok(report.checks.some((c) => c.check === "provider scripted" && c.status === "ok"));
  } finally {
    await s.close();
  }
});

test("a garbage database: the database check names it and how to move it aside, exit 1", async () => {
  const s = await startScenario(done);
  try {
    const db = join(s.ws.home, "data", "bosun.db");
    mkdirSync(join(s.ws.home, "data"));
    writeFileSync(db, "garbage, not sqlite\n".repeat(300));
    const result = await s.run(["doctor"], { env: noKeys });
    assert.equal(result.code, 1);
    noStack(result);
    assert.equal(
      line(result, "database"),
      `database: problem: ${db}: file is not a database — fix: move it aside (mv ${db} ${db}.broken) and bosun starts a new one`,
    );
    assert.match(result.stdout, /\n1 problem found\n$/);
  } finally {
    await s.close();
  }
});

test("no ripgrep, no bubblewrap: each a problem with its fix", async () => {
  const s = await startScenario(done);
  try {
    const result = await s.run(["doctor"], {
      env: { ...noKeys, BOSUN_RG: "/nonexistent/rg", BOSUN_BWRAP: "/nonexistent/bwrap" },
    });
    assert.equal(result.code, 1);
    noStack(result);
    assert.equal(
      line(result, "ripgrep"),
      "ripgrep: problem: /nonexistent/rg does not run (ENOENT); the grep tool fails without it — fix: point BOSUN_RG at a ripgrep binary, or unset it",
    );
    assert.match(
      line(result, "sandbox"),
      /^sandbox: problem: \/nonexistent\/bwrap \(bubblewrap\) is not installed; .* — fix: install bubblewrap/,
    );
    assert.match(result.stdout, /\n2 problems found\n$/);
  } finally {
    await s.close();
  }
});

test("an unreachable provider and one without its key: each named, no key printed, exit 1", async () => {
  const s = await startScenario(done);
  try {
    const port = await closedPort();
    s.setUserConfig({
      provider: {
        ...s.server.configFor("openai-compatible").provider,
        down: { type: "openai-compatible", baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "sk-down-secret" },
        nokey: { type: "anthropic", apiKey: "{env:NOKEY_TEST_VARIABLE}" },
      },
    });
    const result = await s.run(["doctor"], { env: noKeys });
    assert.equal(result.code, 1);
    noStack(result);
    assert.doesNotMatch(result.stdout, /sk-down-secret/);
    assert.equal(
      line(result, "provider down"),
      `provider down: problem: cannot reach http://127.0.0.1:${port}/v1/models (ECONNREFUSED) — fix: check that the server runs and provider.down.baseURL is right, or the network`,
    );
    assert.match(line(result, "provider nokey"), /^provider nokey: problem: no credential: .*NOKEY_TEST_VARIABLE/);
    // The scripted provider still answers: only the broken ones are problems.
    assert.match(line(result, "provider scripted"), /^provider scripted: ok /);
    assert.match(result.stdout, /\n2 problems found\n$/);
  } finally {
    await s.close();
  }
});

test("a repository's own provider endpoint is not contacted until its config is trusted", async () => {
  const s = await startScenario(done);
  // A listener that counts connections: the repository's baseURL points at it.
  let contacted = 0;
  const listener = createServer((socket) => {
    contacted++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as { port: number };
  try {
    s.ws.write(
      "bosun.json",
      JSON.stringify({ provider: { planted: { type: "openai-compatible", baseURL: `http://127.0.0.1:${port}/v1` } } }),
    );
    const result = await s.run(["doctor"], { env: noKeys });
    noStack(result);
    assert.match(
      line(result, "project trust"),
      /^project trust: skipped: this repository's config would set provider planted type, provider planted baseURL; left out \(and not contacted\) until you trust it — fix: bosun run --trust-project/,
    );
    assert.equal(contacted, 0, "doctor contacted a repository's endpoint nobody trusted");
    assert.doesNotMatch(result.stdout, /provider planted: ok/);
  } finally {
    await new Promise((resolve) => listener.close(resolve));
    await s.close();
  }
});

test("no provider set up at all: a problem saying no task can run, and what to set, exit 1", async () => {
  const s = await startScenario(done);
  try {
    writeFileSync(join(s.ws.home, "bosun.json"), "{}");
    const result = await s.run(["doctor"], { env: noKeys });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    noStack(result);
    assert.match(
      line(result, "providers"),
      /^providers: problem: no provider is set up and reachable, so bosun cannot run a task — fix: set ANTHROPIC_API_KEY/,
    );
    assert.match(result.stdout, /\n1 problem found\n$/);
  } finally {
    await s.close();
  }
});
