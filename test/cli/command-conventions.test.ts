import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { startTmux } from "../support/tmux.js";

const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

describe("other agents' command files in the interactive session (tmux)", () => {
  it("a .claude/commands/x/y.md is /x:y; its allowed-tools grants nothing: its writing span is asked, denied, not run", async () => {
    const s = await startScenario({
      rules: [{ match: { lastMessage: "Listed:" }, reply: { text: "Got the claude command." } }],
    });
    s.ws.write(
      ".claude/commands/x/y.md",
      "---\ndescription: a Claude Code command\nallowed-tools: Bash(touch:*)\nargument-hint: [what]\n---\nListed: !`ls .claude`\nMade: !`touch spanned.txt && echo made`\nFor $ARGUMENTS\n",
    );
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/Ask bosun/);
      await term.waitFor(/scripted\/test-model/);
      term.type("/x:y the review");
      await term.waitFor(/shell needs your approval/);
      await term.waitFor(/d deny/);
      term.type("d", false);
      await term.waitFor(/Got the claude command\./);
      assert.equal(existsSync(join(s.ws.dir, "spanned.txt")), false);
      const sent = s.server.requests.at(-1)?.normalized?.messages.at(-1)?.text ?? "";
      assert.match(sent, /Listed: commands/);
      assert.match(sent, /Made: \[not run: /);
      assert.match(sent, /For the review/);
      term.type("/exit");
      const { decisions } = s.latest();
      const input = decisions.find((d) => d.seat === "input.command");
      assert.deepEqual(input?.answer, { kind: "custom", name: "x:y", file: join(s.ws.dir, ".claude/commands/x/y.md") });
      const ignored = input?.reasons.filter((r) => r.rule === "front matter key ignored").map((r) => r.detail);
      assert.equal(ignored?.length, 2);
      assert.match(ignored?.[0] ?? "", /^allowed-tools: a command file never grants tools/);
      expectDecision(decisions, "call.approval", "person", "deny");
    } finally {
      term.kill();
      await s.close();
    }
  });
});
