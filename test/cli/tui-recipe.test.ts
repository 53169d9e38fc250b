import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { sentText, startScenario } from "../support/scenario.js";
import { startTmux } from "../support/tmux.js";

const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

describe("/recipe in the interactive session (tmux)", () => {
  it("lists the recipes; runs one with its parameters as text, its mode for that turn alone", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    s.ws.write(
      ".bosun/recipes/fix.yaml",
      'title: Fix a test\nprompt: "Fix {{ name }} now"\nmode: chat\nparameters:\n  - name: name\n    required: true\n',
    );
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("/recipe");
      await term.waitFor(/fix\s+repository\s+\.bosun\/recipes\/fix\.yaml\s+Fix a test/);
      term.type("/recipe fix");
      await term.waitFor(/\/recipe: recipe "Fix a test" needs parameter "name"/);
      term.type("/recipe fix 'name=$(touch marker)'");
      await term.waitFor(/Done\./);
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("/exit");
      assert.match(sentText(s, 1), /Fix \$\(touch marker\) now/);
      assert.equal(existsSync(join(s.ws.dir, "marker")), false);
      const { decisions } = s.latest();
      expectDecision(decisions, "recipe.settings", "config", "applied");
      expectDecision(decisions, "permission.mode", "config", "chat");
    } finally {
      term.kill();
      await s.close();
    }
  });
});
