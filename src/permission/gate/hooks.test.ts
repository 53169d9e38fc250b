import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { expectDecision } from "../../../test/support/ledger.js";
import { ENTRY_DEFAULTS } from "../../config/defaults.js";
import { loadConfig } from "../../config/load.js";
import type { Answer, RecordedDecision } from "../../contracts/decisions.js";
import { type Hook, hooksFor, hooksFromConfig, judgePreHook, postHookContext, runHook } from "./hooks.js";

const asRecorded = (answer: Answer): RecordedDecision[] => [{ seat: "call.hook", ...answer, seq: 1, at: "" }];

describe("hooks (call.hook)", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "bosun-hooks-")));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const signal = new AbortController().signal;
  const hook = (command: string, over: Partial<Hook> = {}): Hook => ({
    event: "pre_tool",
    command,
    timeoutMs: 5000,
    onError: "deny",
    onErrorWritten: false,
    fromProject: false,
    source: "/p/bosun.json",
    key: "hooks.pre_tool[0]",
    line: 3,
    ...over,
  });
  const pre = async (command: string, over: Partial<Hook> = {}) => {
    const h = hook(command, over);
    return judgePreHook(h, await runHook(h, { tool: "shell", input: { command: "ls" } }, dir, signal));
  };

  it("gives the call to the hook as JSON on stdin, in the workspace, without the keys", async () => {
    const h = hook(`cat > got.json; echo "$BOSUN_HOOK $OPENAI_API_KEY" > env.txt`);
    process.env.OPENAI_API_KEY = "sk-secret";
    try {
      const run = await runHook(h, { tool: "write", input: { path: "a" } }, dir, signal);
      assert.equal(run.kind, "exited");
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
    assert.deepEqual(JSON.parse(readFileSync(join(dir, "got.json"), "utf8")), { tool: "write", input: { path: "a" } });
    assert.equal(readFileSync(join(dir, "env.txt"), "utf8"), "pre_tool \n");
  });

  it("exit 2 denies with stderr as the reason (hook)", async () => {
    const verdict = await pre("echo 'no pushing on fridays' >&2; exit 2");
    expectDecision(asRecorded(verdict), "call.hook", "hook", "deny");
    assert.equal(verdict.message, "no pushing on fridays");
    assert.deepEqual(verdict.reasons[1], {
      rule: "hooks.pre_tool[0]",
      detail: "echo 'no pushing on fridays' >&2; exit 2",
      source: "/p/bosun.json",
      key: "hooks.pre_tool[0]",
      line: 3,
    });
  });

  it("a JSON decision denies or asks; allow lifts nothing; exit 0 passes", async () => {
    const deny = await pre(`echo '{"decision":"deny","reason":"secrets"}'`);
    expectDecision(asRecorded(deny), "call.hook", "hook", "deny");
    assert.equal(deny.message, "secrets");
    assert.equal((await pre(`echo '{"decision":"block"}'`)).answer, "deny");
    expectDecision(asRecorded(await pre(`echo '{"decision":"ask","reason":"looks odd"}'`)), "call.hook", "hook", "ask");
    const allow = await pre(`echo '{"decision":"allow"}'`);
    expectDecision(asRecorded(allow), "call.hook", "hook", "no-objection");
    assert.match(allow.reasons[0]?.rule ?? "", /lifts nothing/);
    expectDecision(asRecorded(await pre("echo checking; exit 0")), "call.hook", "hook", "no-objection");
  });

  it("a hook that crashes, times out or answers nonsense denies by default (code)", async () => {
    const crash = await pre("exit 1");
    expectDecision(asRecorded(crash), "call.hook", "code", "deny");
    assert.match(crash.reasons[0]?.detail ?? "", /exit code 1; on_error deny \(the default\) → deny/);
    const slow = await pre("sleep 5", { timeoutMs: 200 });
    assert.equal(slow.answer, "deny");
    assert.match(slow.reasons[0]?.detail ?? "", /timed out after 200 ms/);
    assert.match((await pre(`echo '{"decision":"maybe"}'`)).reasons[0]?.detail ?? "", /unknown decision "maybe"/);
    assert.match((await pre(`echo '{"decision": deny'`)).reasons[0]?.detail ?? "", /starts like JSON/);
    assert.equal((await pre("/nonexistent/hook")).answer, "deny");
  });

  it("on_error: allow lets a failed hook pass, held by config", async () => {
    const verdict = await pre("exit 7", { onError: "allow", onErrorWritten: true });
    expectDecision(asRecorded(verdict), "call.hook", "config", "no-objection");
    assert.equal(verdict.reasons[0]?.key, "hooks.pre_tool[0].on_error");
  });

  it("kills a timed-out hook's whole process group", async () => {
    const marker = join(dir, "late.txt");
    const h = hook(`(sleep 1; touch ${marker}) & wait`, { timeoutMs: 150 });
    assert.equal((await runHook(h, {}, dir, signal)).kind, "failed");
    await new Promise((resolve) => setTimeout(resolve, 1300));
    assert.throws(() => readFileSync(marker));
  });

  it('post_tool: stdout, {"context"} or exit 2\'s stderr becomes context; a failure adds nothing', async () => {
    const run = (command: string) => runHook(hook(command, { event: "post_tool" }), {}, dir, signal);
    assert.deepEqual(postHookContext(await run("echo lint: 2 warnings")), { context: "lint: 2 warnings" });
    assert.deepEqual(postHookContext(await run(`echo '{"context":"formatted"}'`)), { context: "formatted" });
    assert.deepEqual(postHookContext(await run("echo bad >&2; exit 2")), { context: "bad" });
    assert.deepEqual(postHookContext(await run("true")), {});
    assert.match(postHookContext(await run("exit 3")).failure ?? "", /exit code 3/);
  });

  it("takes a hook's timeout and on_error as written, else the entry defaults", () => {
    const home = join(dir, "entry-home");
    mkdirSync(home, { recursive: true });
    const content = {
      hooks: { pre_tool: [{ command: "a" }, { command: "b", timeout_ms: 250, on_error: "allow" }] },
    };
    const hooks = hooksFromConfig(
      loadConfig({ cwd: home, env: { BOSUN_HOME: home, BOSUN_CONFIG_CONTENT: JSON.stringify(content) } }),
    );
    assert.deepEqual(
      hooks.map((h) => [h.command, h.timeoutMs, h.onError]),
      [
        ["a", ENTRY_DEFAULTS.hook.timeout_ms, ENTRY_DEFAULTS.hook.on_error],
        ["b", 250, "allow"],
      ],
    );
  });

  it("takes every layer's hooks (a project adds to the global ones, never replaces them), with their lines", () => {
    const home = join(dir, "home");
    const project = join(dir, "project");
    for (const d of [home, project]) rmSync(d, { recursive: true, force: true });
    mkdirSync(home, { recursive: true });
    mkdirSync(project, { recursive: true });
    writeFileSync(join(home, "bosun.json"), JSON.stringify({ hooks: { pre_tool: [{ command: "global-check" }] } }));
    writeFileSync(
      join(project, "bosun.json"),
      JSON.stringify(
        {
          hooks: {
            pre_tool: [{ command: "project-check", tools: ["sh*"], on_error: "allow" }],
            post_tool: [{ command: "fmt" }],
          },
        },
        null,
        2,
      ),
    );
    const hooks = hooksFromConfig(loadConfig({ cwd: project, env: { BOSUN_HOME: home } }));
    assert.deepEqual(
      hooks.map((h) => [h.event, h.command, h.source, h.onError, h.onErrorWritten]),
      [
        ["pre_tool", "global-check", join(home, "bosun.json"), "deny", false],
        ["pre_tool", "project-check", join(project, "bosun.json"), "allow", true],
        ["post_tool", "fmt", join(project, "bosun.json"), "deny", false],
      ],
    );
    assert.equal(hooks[1]?.line, 4);
    assert.deepEqual(
      hooksFor(hooks, "pre_tool", "shell").map((h) => h.command),
      ["global-check", "project-check"],
    );
    assert.deepEqual(
      hooksFor(hooks, "pre_tool", "write").map((h) => h.command),
      ["global-check"],
    );
  });
});
