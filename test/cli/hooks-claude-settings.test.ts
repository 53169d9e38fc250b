import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

describe("bosun run: .claude/settings.json hooks are a repository's hooks", () => {
  it("run only once judged allowed (project.command): untrusted, not run and said so; --allow, they run", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "go" },
          reply: { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] },
        },
        { reply: { text: "All done." } },
      ],
    });
    try {
      s.ws.write(
        ".claude/settings.json",
        JSON.stringify({
          hooks: {
            PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "touch pre.txt", timeout: 5 }] }],
          },
        }),
      );
      s.ws.write(
        ".claude/settings.local.json",
        JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "touch stop.txt" }] }] } }),
      );
      const untrusted = await s.run(["run", "--auto", "go"]);
      assert.equal(untrusted.code, 0, untrusted.stderr);
      assert.match(untrusted.stderr, /not running hooks\.pre_tool\[0\]/);
      assert.match(untrusted.stderr, /not running hooks\.stop\[0\]/);
      assert.equal(existsSync(join(s.ws.dir, "pre.txt")), false);
      assert.equal(existsSync(join(s.ws.dir, "stop.txt")), false);
      const skipped = expectDecision(s.latest().decisions, "project.command", "code", "skip");
      assert.match(JSON.stringify(skipped.reasons), /\.claude\/settings/);

      const trusted = await s.run(["run", "--auto", "--allow", "shell:touch *", "go"]);
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.ok(existsSync(join(s.ws.dir, "pre.txt")), "the PreToolUse hook ran on the shell call");
      assert.ok(existsSync(join(s.ws.dir, "stop.txt")), "the Stop hook ran at the end");
      const { decisions } = s.latest();
      expectDecision(decisions, "project.command", "person", "run");
      expectDecision(decisions, "call.hook", "hook", "no-objection");
      expectDecision(decisions, "turn.stop_hook", "hook", "done");
    } finally {
      await s.close();
    }
  });

  it("a hook of .claude/settings.json and one of bosun.json with the same key are judged apart", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { lastMessage: "go" },
            reply: { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "echo hi" } }] },
          },
          { reply: { text: "All done." } },
        ],
      },
      { config: { hooks: { pre_tool: [{ command: "touch from-bosun.txt" }] } } },
    );
    try {
      s.ws.write(
        ".claude/settings.json",
        JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "touch from-claude.txt" }] }] } }),
      );
      const result = await s.run(["run", "--auto", "--allow", "shell:touch from-claude.txt", "go"]);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(existsSync(join(s.ws.dir, "from-claude.txt")), "the allowed one ran");
      assert.equal(existsSync(join(s.ws.dir, "from-bosun.txt")), false, "the other did not");
      const judged = s.latest().decisions.filter((d) => d.seat === "project.command");
      assert.deepEqual(judged.map((d) => [d.subject?.key, d.answer]).sort(), [
        ["hooks.pre_tool[0]", "run"],
        ["hooks.pre_tool[0]", "skip"],
      ]);
    } finally {
      await s.close();
    }
  });
});
