import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { sentText, startScenario } from "../support/scenario.js";
import { startTmux } from "../support/tmux.js";

const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

describe("/goal in the interactive session (tmux)", () => {
  it("sets a goal the next turn is held to: a failed check goes back to the model, the next passes; /goal shows it, /goal off clears it", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("/goal");
      await term.waitFor(/no goal: \/goal <command> keeps each turn going/);
      term.type("/goal test -f .tried || { touch .tried; echo FAIL-ONCE; exit 1; }");
      await term.waitFor(/goal set: each turn goes on until `test -f \.tried/);
      term.type("fix the test");
      await term.waitFor(/goal `test -f \.tried[^`]*` exited 1 \(check 1\): back to the model/);
      await term.waitFor(/goal `test -f \.tried[^`]*` passed \(check 2\)/);
      assert.match(sentText(s, 2), /FAIL-ONCE/);
      term.type("/goal");
      await term.waitFor(/goal: until `test -f \.tried[^`]*` exits 0; \/goal off clears it/);
      term.type("/goal off");
      await term.waitFor(/goal cleared/);
      term.type("/exit");
      const { decisions } = s.latest();
      const again = expectDecision(decisions, "turn.goal", "person", "continue");
      assert.ok(again.reasons.some((r) => r.rule === "the person's goal" && r.detail === "/goal"));
      expectDecision(decisions, "turn.goal", "person", "passed");
    } finally {
      term.kill();
      await s.close();
    }
  });

  it("bosun --until sets the session's goal from its first turn; /goal shows it", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env), args: ["--until", "test -f marker"] });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("/goal");
      await term.waitFor(/goal: until `test -f marker` exits 0; \/goal off clears it/);
      s.ws.write("marker", "");
      term.type("make it so");
      await term.waitFor(/goal `test -f marker` passed \(check 1\)/);
      term.type("/exit");
      const passed = expectDecision(s.latest().decisions, "turn.goal", "person", "passed");
      assert.ok(passed.reasons.some((r) => r.rule === "the person's goal" && r.detail === "--until"));
    } finally {
      term.kill();
      await s.close();
    }
  });
});
