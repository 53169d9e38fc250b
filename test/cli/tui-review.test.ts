import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { startTmux } from "../support/tmux.js";

/**
 * `/review` in the interactive session (tmux): the configured checks and the read-only reviewer
 * run in a review session of their own, and the report is shown; a failing check fails it.
 */

const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

describe("/review in the TUI (tmux)", () => {
  it("shows the findings and a failing check, in a session of its own; bad arguments are said", async () => {
    const finding = { file: "app.js", line: 1, severity: "medium", text: "x went from 1 to 2 silently" };
    const s = await startScenario(
      { rules: [{ reply: { text: JSON.stringify({ findings: [finding] }) } }] },
      { global: { review: { checks: [{ name: "unit", command: "echo 2 failing; exit 1" }] } } },
    );
    s.ws.write("app.js", "export const x = 1;\n");
    const git = (...args: string[]) =>
      spawnSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: s.ws.dir });
    git("add", "-A");
    git("commit", "-qm", "start");
    s.ws.write("app.js", "export const x = 2;\n");
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("/review --fail-on severe");
      await term.waitFor(/\/review: --fail-on must be/);
      assert.equal(s.server.requests.length, 0, "nothing went to the model");
      term.type("/review");
      await term.waitFor(/review failed: unit failed/, 20_000);
      const screen = term.screen();
      assert.match(screen, /MEDIUM app\.js:1: x went from 1 to 2 silently/);
      assert.match(screen, /check unit: FAILED \(exit 1\)/);
      assert.doesNotMatch(screen, /no findings/);
      assert.equal(s.server.requests.length, 1);
      // The reviewer's session is its own, recorded; the file is as it was.
      const review = s.latest();
      expectDecision(review.decisions, "review.verdict", "code", "failed");
      expectDecision(review.decisions, "review.check", "code", "failed");
      assert.equal(readFileSync(join(s.ws.dir, "app.js"), "utf8"), "export const x = 2;\n");
      term.type("/exit");
      const until = Date.now() + 10_000;
      while (!term.exited() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    } finally {
      term.kill();
      await s.close();
    }
  });
});
