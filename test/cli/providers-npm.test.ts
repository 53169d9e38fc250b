import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readDecisions } from "../../src/seats/record.js";
import { SessionStore } from "../../src/store/session-store.js";
import { installFakeProvider, startFakeServer } from "../support/fake-provider.js";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { createWorkspace } from "../support/workspace.js";

const PACKAGE = "bosun-fake-provider";

describe("an npm provider package, through the binary", () => {
  it("the person's own config names a package installed in BOSUN_HOME/providers: it answers through bosun's fetch", async () => {
    const fake = await startFakeServer("Answered by the fake package.");
    const ws = createWorkspace();
    try {
      installFakeProvider(ws.home, PACKAGE);
      writeFileSync(
        join(ws.home, "bosun.json"),
        JSON.stringify({
          model: "fake/fake-1",
          provider: { fake: { type: "npm", npm: PACKAGE, baseURL: fake.url, apiKey: "{env:FAKE_KEY}" } },
        }),
      );
      const run = await ws.run(["run", "hello"], { env: { FAKE_KEY: "fake-secret", AI_SDK_LOG_WARNINGS: "false" } });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Answered by the fake package\./);
      const asked = fake.requests.find((r) => r.path === "/answer");
      assert.ok(asked, "the package's model made no request");
      // bosun built the package's model with the config's key and endpoint.
      assert.equal(asked.headers.authorization, "Bearer fake-secret");
      assert.match(asked.body, /hello/);
      const store = SessionStore.open(join(ws.home, "data", "bosun.db"));
      try {
        const [session] = store.list();
        assert.ok(session);
        expectDecision(readDecisions(store, session.id), "model.select", "config", "fake/fake-1");
      } finally {
        store.close();
      }
    } finally {
      ws.cleanup();
      await fake.close();
    }
  });

  it("a package that is not installed is a clear error naming where it was looked for and how to install it", async () => {
    const ws = createWorkspace();
    try {
      writeFileSync(
        join(ws.home, "bosun.json"),
        JSON.stringify({ model: "fake/fake-1", provider: { fake: { type: "npm", npm: "not-installed-pkg" } } }),
      );
      const run = await ws.run(["run", "hello"]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /npm package not-installed-pkg is not installed/);
      assert.match(run.stderr, /npm install --prefix \S+providers not-installed-pkg/);
      assert.doesNotMatch(run.stderr, /^\s+at /m);
    } finally {
      ws.cleanup();
    }
  });
});

describe("a repository's bosun.json naming an npm provider (seat project.trust)", () => {
  async function scenario() {
    const fake = await startFakeServer("Answered by the repository's package.");
    const s = await startScenario(
      { rules: [{ reply: { text: "Answered by your own model." } }] },
      {
        config: {
          model: "repo/fake-1",
          provider: { repo: { type: "npm", npm: PACKAGE, baseURL: fake.url, apiKey: "repo-key" } },
        },
      },
    );
    installFakeProvider(s.ws.home, PACKAGE);
    return { s, fake };
  }

  it("untrusted: the package is not loaded, the run says what was left out and how to allow it, the ledger holds code's no", async () => {
    const { s, fake } = await scenario();
    try {
      const run = await s.run(["run", "hello"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Answered by your own model\./);
      assert.equal(fake.requests.length, 0, "the repository's package ran");
      assert.match(
        run.stderr,
        /not applying what .*bosun\.json would loosen \(.*provider repo npm.*\): not trusted; --trust-project applies it/,
      );
      const { decisions } = s.latest();
      const trust = expectDecision(decisions, "project.trust", "code", "untrusted");
      assert.match(trust.reasons.map((r) => r.detail ?? "").join("\n"), /provider repo type;.*provider repo npm/);
      expectDecision(decisions, "model.select", "config", "scripted/test-model");

      // `bosun models` shows what a run here would use: the repository's provider without its package.
      const listed = await s.run(["models", "--json"]);
      assert.equal(listed.code, 0, listed.stderr);
      const data = JSON.parse(listed.stdout) as {
        selected: { model?: string };
        untrusted?: string[];
        providers: Array<{ provider: string; usable: boolean; problem?: string }>;
      };
      assert.equal(data.selected.model, "scripted/test-model");
      assert.ok(data.untrusted?.includes("provider repo npm"));
      const repo = data.providers.find((p) => p.provider === "repo");
      assert.equal(repo?.usable, false);
      assert.match(repo?.problem ?? "", /--trust-project/);
      const text = await s.run(["models"]);
      assert.match(
        text.stdout,
        /^not trusted: this repository's config would set .*provider repo npm.*--trust-project/m,
      );

      // Naming the repository's provider outright says why it cannot be used and how to allow it.
      const named = await s.run(["run", "--model", "repo/fake-1", "hello"]);
      assert.equal(named.code, 2, named.stderr);
      assert.match(named.stderr, /provider "repo" has no type.*--trust-project/);
      assert.equal(fake.requests.length, 0);
    } finally {
      await s.close();
      await fake.close();
    }
  });

  it("trusted (--trust-project): the package loads and answers, the ledger holds the person's yes", async () => {
    const { s, fake } = await scenario();
    try {
      const run = await s.run(["run", "--trust-project", "hello"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Answered by the repository's package\./);
      assert.equal(fake.requests[0]?.headers.authorization, "Bearer repo-key");
      const { decisions } = s.latest();
      expectDecision(decisions, "project.trust", "person", "trusted");
      expectDecision(decisions, "model.select", "config", "repo/fake-1");
    } finally {
      await s.close();
      await fake.close();
    }
  });
});
