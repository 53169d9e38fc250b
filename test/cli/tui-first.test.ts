import assert from "node:assert/strict";
import { basename } from "node:path";
import { describe, it } from "node:test";
import { startScenario } from "../support/scenario.js";
import { startTmux } from "../support/tmux.js";
import { createWorkspace } from "../support/workspace.js";

/** As in tui.test.ts: `CI` set, as on a CI runner; bosun keeps it from Ink so the session still draws. */
const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

/** No provider key from the caller's environment: nothing but the config chooses a model. */
const noKeys = { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GOOGLE_GENERATIVE_AI_API_KEY: "", GEMINI_API_KEY: "" };

async function until(done: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  return done();
}

/** Every decision in `bosun why --json`'s output, however it groups them. */
function decisionsIn(json: unknown): Array<{ seat: string; holder: string; answer: unknown }> {
  if (Array.isArray(json)) return json.flatMap(decisionsIn);
  if (json && typeof json === "object") {
    const o = json as Record<string, unknown>;
    if (typeof o.seat === "string" && typeof o.holder === "string")
      return [{ seat: o.seat, holder: o.holder, answer: o.answer }];
    return Object.values(o).flatMap(decisionsIn);
  }
  return [];
}

describe("the interactive session's first impression (tmux)", () => {
  it("welcome header; / menu filters and Tab completes; /model picker switches (holder person); spinner with seconds and tokens; Ctrl-C clears a draft, then quits", async () => {
    const s = await startScenario({
      rules: [
        // A step that used tokens, then a slow one: the spinner shows both while it waits.
        {
          match: { lastMessage: "slow task" },
          reply: { usage: { input: 1500, output: 40 }, toolCalls: [{ id: "l1", name: "list", arguments: {} }] },
        },
        { match: { lastMessage: "tool_result l1" }, reply: { delayMs: 3000, text: "Listed it all." } },
      ],
    });
    // A second configured model: an agent's own.
    s.setUserConfig({ agent: { review: { model: "scripted/review-model" } } });
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv({ ...s.ws.env, ...noKeys }) });
    try {
      // Drawn at once, filled in with the model and mode once the session has opened.
      const first = await term.waitFor(/model scripted\/test-model · agent build · mode approve/);
      assert.match(first, /bosun \d+\.\d+\.\d+ · \S+/);
      assert.ok(first.includes(basename(s.ws.dir)), first);
      assert.match(first, /\/ commands · Esc interrupts · Ctrl-C quits/);

      term.type("/mo", false);
      const menu = await term.waitFor(/› \/model\s+show or switch the model/);
      assert.match(menu, /\/mode\s+show or switch the permission mode/);
      assert.doesNotMatch(menu, /\/help\s+list the commands/, "filtered: only names with mo");
      term.keys("Tab");
      await term.waitFor(/› \/model \S*\s*│/);
      assert.doesNotMatch(term.screen(), /show or switch the permission mode/, "completed: the menu is closed");
      term.keys("Enter");
      const picker = await term.waitFor(/Switch the model[\s\S]*scripted\/review-model/);
      assert.match(picker, /› scripted\/test-model\s+config model \(now\)/);
      assert.match(picker, /scripted\/review-model\s+agent review's model/);
      term.keys("Down");
      term.keys("Enter");
      await term.waitFor(/session \w{10} · scripted\/review-model · build · approve/);
      await term.waitFor(/scripted\/review-model · build · approve · /);
      // An error read here names the session's command, not the launch flag.
      term.type("/mode bogus");
      await term.waitFor(/not changed: \/mode must be one of approve, smart, auto, chat, not "bogus"/);

      term.type("slow task");
      const spinning = await term.waitFor(/working · \d+ s · 1\.5k tokens · waiting for the model · \d+ s/);
      assert.match(spinning, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working/);
      await term.waitFor(/Listed it all\./);

      term.type("a draft never sent", false);
      await term.waitFor(/a draft never sent/);
      term.keys("C-c");
      await term.waitFor(/Ask bosun/);
      assert.equal(term.exited(), false, "Ctrl-C with a draft clears it and stays");
      assert.doesNotMatch(term.screen(), /a draft never sent/);
      term.keys("C-c");
      assert.ok(await until(() => term.exited()), term.screen());
      assert.equal(term.exitCode(), 0);

      const { id } = s.latest();
      const why = await s.run(["why", id, "--json"]);
      assert.equal(why.code, 0, why.stderr);
      const models = decisionsIn(JSON.parse(why.stdout)).filter((d) => d.seat === "model.select");
      // The launch's model was config's; the picker's choice is the person's, and holds when the
      // session opens again (after the refused /mode).
      const [launch, ...after] = models.map((d) => `${d.holder}:${d.answer}`);
      assert.equal(launch, "config:scripted/test-model");
      assert.ok(after.length > 0);
      assert.deepEqual(new Set(after), new Set(["person:scripted/review-model"]));
    } finally {
      term.kill();
      await s.close();
    }
  });

  it("with no model configured it stays open, says what to set up, and /help and /exit still work", async () => {
    const ws = createWorkspace();
    const term = startTmux({ cwd: ws.dir, env: terminalEnv({ ...ws.env, ...noKeys }) });
    try {
      const screen = await term.waitFor(/bosun doctor/);
      assert.match(screen, /model no model/);
      assert.match(screen, /No model is configured/);
      assert.match(screen, /ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY/);
      // The provider's JSON on one line, whole, and the file it goes in.
      assert.match(
        screen,
        /\n\s*\{"provider":\{"local":\{"type":"openai-compatible","baseURL":"http:\/\/127\.0\.0\.1:11434\/v1"\}\}\}\n/,
      );
      assert.ok(screen.includes(`as a provider in ${ws.env.BOSUN_HOME}/bosun.json`), screen);
      term.type("fix the bug");
      await term.waitFor(/› fix the bug\n\s*No model is configured/);
      assert.equal(term.exited(), false);
      term.type("/help");
      await term.waitFor(/Commands:/);
      term.type("/exit");
      assert.ok(await until(() => term.exited()), term.screen());
      assert.equal(term.exitCode(), 0);
    } finally {
      term.kill();
      ws.cleanup();
    }
  });
});
