import assert from "node:assert/strict";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

const started = (events: Array<{ type: string; data: unknown }>, id: string) =>
  events.some((e) => e.type === "call.started" && (e.data as { id: string }).id === id);

/** A hook script in the user's own folder, as a Claude Code user keeps one in ~/.claude/hooks. */
function hookScript(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe("bosun run: hooks written for Claude Code", () => {
  it("a PreToolUse guard from the user's config denies shell via hookSpecificOutput, even under --auto", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              { id: "rm", name: "shell", arguments: { command: "rm -rf build && touch made.txt" } },
              { id: "ok", name: "shell", arguments: { command: "touch fine.txt" } },
            ],
          },
        },
        { reply: { text: "Done." } },
      ],
    });
    try {
      // The Claude Code guide's guard, unchanged: it reads .tool_input.command and answers in JSON.
      const guard = hookScript(
        s.ws.home,
        "block-rm.sh",
        [
          "COMMAND=$(jq -r '.tool_input.command')",
          "if echo \"$COMMAND\" | grep -q 'rm -rf'; then",
          '  jq -n \'{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "Destructive command blocked by hook"}}\'',
          "else",
          "  exit 0",
          "fi",
        ].join("\n"),
      );
      s.setUserConfig({ hooks: { pre_tool: [{ command: guard, tools: ["Bash"] }] } });
      const result = await s.run(["run", "--auto", "clean up"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "made.txt")), false, "the denied call did not run");
      assert.equal(existsSync(join(s.ws.dir, "fine.txt")), true, "the guard let the other command through");
      const { decisions, events } = s.latest();
      assert.equal(started(events, "rm"), false);
      const denied = expectDecision(decisions, "call.hook", "hook", "deny");
      assert.equal(denied.subject?.call, "rm");
      assert.equal(denied.reasons[0]?.rule, 'hook hookSpecificOutput.permissionDecision "deny"');
      assert.equal(denied.reasons[0]?.detail, "Destructive command blocked by hook");
      const passed = expectDecision(decisions, "call.hook", "hook", "no-objection");
      assert.equal(passed.subject?.call, "ok");
      const toModel =
        s.server
          .request(2)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(toModel, /Denied by a hook: Destructive command blocked by hook/);
    } finally {
      await s.close();
    }
  });

  it('"continue": false stops the turn: nothing of the response runs, exit 3, the stopReason said', async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              { id: "w", name: "write", arguments: { path: "w.txt", content: "x" } },
              { id: "sh", name: "shell", arguments: { command: "touch t.txt" } },
              { id: "r", name: "read", arguments: { path: "bosun.json" } },
            ],
          },
        },
        { reply: { text: "Done." } },
      ],
    });
    try {
      const stop = hookScript(
        s.ws.home,
        "stop.sh",
        `cat >/dev/null\necho '{"continue": false, "stopReason": "maintenance window"}'`,
      );
      s.setUserConfig({ hooks: { pre_tool: [{ command: stop, tools: ["Bash"] }] } });
      const result = await s.run(["run", "--auto", "go"]);
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, /stopped by a hook \(hooks\.pre_tool\[0\]\): maintenance window/);
      assert.equal(existsSync(join(s.ws.dir, "t.txt")), false);
      assert.equal(existsSync(join(s.ws.dir, "w.txt")), false, "the call judged before the stop did not run either");
      assert.equal(s.server.requests.length, 1, "the model was not asked again");
      const { decisions, events } = s.latest();
      expectDecision(decisions, "call.hook", "hook", "stop");
      assert.equal(
        ["w", "sh", "r"].some((id) => started(events, id)),
        false,
      );
    } finally {
      await s.close();
    }
  });
});
