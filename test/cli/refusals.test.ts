import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import type { Script } from "../support/model-server.js";
import { type Scenario, startScenario } from "../support/scenario.js";

/** The `--allow` flags a refusal's stderr suggests, split as a shell would split the quoted words. */
function suggested(stderr: string): string[] {
  return [...stderr.matchAll(/--allow '([^']+)'/g)].flatMap((m) => ["--allow", m[1] as string]);
}

const finish = { reply: { text: "Done." } };

describe("bosun run: a refusal with nobody to ask names the narrow fix", () => {
  const tests: Script = {
    rules: [
      {
        match: { lastMessage: "run the tests" },
        reply: { toolCalls: [{ id: "t1", name: "shell", arguments: { command: "npm test --silent" } }] },
      },
      finish,
    ],
  };

  async function withTests(body: (s: Scenario) => Promise<void>, config?: Record<string, unknown>) {
    const s = await startScenario(tests, config ? { config } : {});
    s.ws.write("package.json", JSON.stringify({ scripts: { test: "node -e \"console.log('TESTS-' + 'RAN')\"" } }));
    try {
      await body(s);
    } finally {
      await s.close();
    }
  }

  it("a shell command: --allow 'shell:npm test *' on stderr, to the model and in the ledger; rerun with it, it runs", async () => {
    await withTests(async (s) => {
      const denied = await s.run(["run", "run the tests"]);
      assert.equal(denied.code, 3, denied.stderr);
      assert.match(
        denied.stderr,
        /! nothing interactive is attached and --auto was not given: run with --allow 'shell:npm test \*' to allow it \(or --auto to approve every ask\)/,
      );
      const approval = expectDecision(s.latest().decisions, "call.approval", "code", "deny");
      assert.deepEqual(approval.reasons[1], {
        rule: "narrow fix",
        detail: "--allow 'shell:npm test *' (checked: the call would be allowed)",
      });
      const told = s.server.requests.at(-1)?.normalized?.messages.at(-1)?.text ?? "";
      assert.match(told, /The user can allow exactly this call with --allow 'shell:npm test \*'\./);

      const flags = suggested(denied.stderr);
      assert.deepEqual(flags, ["--allow", "shell:npm test *"]);
      const allowed = await s.run(["run", ...flags, "run the tests"]);
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.doesNotMatch(allowed.stderr, /--allow|--auto/);
      expectDecision(s.latest().decisions, "call.permission", "person", "allow");
      assert.ok(
        s.latest().decisions.every((d) => d.seat !== "call.approval"),
        "nobody needed to approve",
      );
      assert.match(s.server.requests.at(-1)?.normalized?.messages.at(-1)?.text ?? "", /TESTS-RAN/);
    });
  });

  it("an edit: the exact workspace-relative path, which the rerun writes", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "fix the slug" },
          reply: {
            toolCalls: [
              { id: "e1", name: "write", arguments: { path: "src/slug.js", content: "export const slug = 1;\n" } },
            ],
          },
        },
        finish,
      ],
    });
    try {
      s.ws.write("src/index.js", "export {};\n");
      const denied = await s.run(["run", "fix the slug"]);
      assert.equal(denied.code, 3, denied.stderr);
      const flags = suggested(denied.stderr);
      assert.deepEqual(flags, ["--allow", "edit:src/slug.js"]);
      assert.equal(existsSync(join(s.ws.dir, "src/slug.js")), false);
      const allowed = await s.run(["run", ...flags, "fix the slug"]);
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.equal(readFileSync(join(s.ws.dir, "src/slug.js"), "utf8"), "export const slug = 1;\n");
    } finally {
      await s.close();
    }
  });

  it("a call a written rule denies names that rule and its line, and suggests no flag", async () => {
    await withTests(
      async (s) => {
        const result = await s.run(["run", "run the tests"]);
        assert.equal(result.code, 0, result.stderr);
        assert.match(
          result.stderr,
          /✗ shell: denied by rule \(permission\.shell\["npm test \*"\], .*bosun\.json:\d+\)/,
        );
        assert.doesNotMatch(result.stderr, /--allow|--auto/);
        expectDecision(s.latest().decisions, "call.permission", "config", "deny");
      },
      { permission: { shell: { "npm test *": "deny" } } },
    );
  });

  it("an ask a hook adds is not one --allow lifts: no narrow flag is suggested", async () => {
    await withTests(async (s) => {
      // The user's own hook (a repository's would need trust): every shell call asks.
      s.setUserConfig({ hooks: { pre_tool: [{ command: `echo '{"decision":"ask"}'`, tools: ["shell"] }] } });
      const result = await s.run(["run", "--allow", "shell:npm test *", "run the tests"]);
      assert.equal(result.code, 3, result.stderr);
      assert.doesNotMatch(result.stderr, /--allow '/);
      assert.match(result.stderr, /run with --auto to approve/);
      expectDecision(s.latest().decisions, "call.hook", "hook", "ask");
    });
  });
});

describe("bosun run: model ids", () => {
  const hello: Script = { rules: [{ reply: { text: "Hello." } }] };

  it("a misspelled model of a provider that lists its models is exit 2, naming them; any_model lets it through", async () => {
    const s = await startScenario(hello);
    try {
      const scripted = { type: "openai-compatible", baseURL: s.server.baseURL, apiKey: "test-key" };
      s.setUserConfig({
        provider: { scripted: { ...scripted, models: { "test-model": { context: 100_000 }, chat: {} } } },
      });
      const wrong = await s.run(["run", "--model", "scripted/test-modl", "hi"]);
      assert.equal(wrong.code, 2, wrong.stderr);
      assert.match(
        wrong.stderr,
        /model scripted\/test-modl \(chosen by --model flag\) cannot be used: provider scripted has no model test-modl; its models: test-model, chat \(did you mean test-model\?\)\./,
      );
      assert.match(
        wrong.stderr,
        /fix: use scripted\/test-model, add provider\.scripted\.models\["test-modl"\], or set provider\.scripted\.any_model: true\./,
      );
      assert.doesNotMatch(wrong.stderr, /\n\s+at /, "no stack trace");
      assert.equal(s.server.requests.length, 0, "no model was called");

      s.setUserConfig({ provider: { scripted: { ...scripted, models: { "test-model": {} }, any_model: true } } });
      const open = await s.run(["run", "--model", "scripted/test-modl", "hi"]);
      assert.equal(open.code, 0, open.stderr);
      assert.doesNotMatch(open.stderr, /not in bosun's catalog/);
      const chosen = expectDecision(s.latest().decisions, "model.select", "person", "scripted/test-modl");
      assert.match(
        chosen.reasons.find((r) => r.rule === "model limits")?.detail ?? "",
        /^context 32000 \(assumed\), output 4096 \(assumed\): scripted\/test-modl is not in the catalog or config, so bosun assumed its limits \(provider scripted accepts any model id\)$/,
      );
    } finally {
      await s.close();
    }
  });

  it("a built-in provider's model the catalog does not know runs, warned: limits assumed, price unknown", async () => {
    const s = await startScenario(hello, { protocol: "anthropic" });
    try {
      s.setUserConfig({
        model: "anthropic/claude-next-9",
        provider: { anthropic: { baseURL: s.server.baseURL, apiKey: "test-key" } },
      });
      const result = await s.run(["run", "hi"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stderr,
        /anthropic\/claude-next-9 is not in bosun's catalog: it is sent as written, with assumed limits \(context 32000, output 4096 tokens, so compaction may start early\) and no price, so cost is not counted/,
      );
      assert.equal(s.server.requests.length, 1);
      const chosen = expectDecision(s.latest().decisions, "model.select", "config", "anthropic/claude-next-9");
      assert.match(
        chosen.reasons.find((r) => r.rule === "model limits")?.detail ?? "",
        /^context 32000 \(assumed\), output 4096 \(assumed\): .*no price.*warned when the run starts$/,
      );
      // The AI SDK's own warnings about such a model go to console.info/warn: on stdout they
      // would break the JSON stream a script reads, and they repeat what bosun said in words.
      const json = await s.run(["run", "--format", "json", "hi"]);
      assert.equal(json.code, 0, json.stderr);
      for (const line of json.stdout.trim().split("\n")) {
        assert.doesNotThrow(() => JSON.parse(line), `not a JSON line on stdout: ${line}`);
      }
      assert.doesNotMatch(result.stdout + result.stderr + json.stderr, /AI SDK Warning/);
    } finally {
      await s.close();
    }
  });
});
