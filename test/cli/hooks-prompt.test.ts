import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

function hookScript(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe("bosun run: prompt hooks (turn.prompt_hook)", () => {
  it("Claude Code's UserPromptSubmit shape: a block keeps the prompt from the model, says why, exit 3", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const guard = hookScript(
        s.ws.home,
        "guard.sh",
        [
          "INPUT=$(cat)",
          '[ "$(echo "$INPUT" | jq -r \'.hook_event_name\')" = UserPromptSubmit ] || exit 1',
          "if echo \"$INPUT\" | jq -r '.prompt' | grep -q 'sk-'; then",
          '  jq -n \'{decision: "block", reason: "the prompt holds an API key"}\'',
          "fi",
        ].join("\n"),
      );
      s.setUserConfig({ hooks: { user_prompt_submit: [{ command: guard }] } });
      const result = await s.run(["run", "use key sk-123 to deploy"]);
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, /blocked by a hook \(hooks\.user_prompt_submit\[0\]\): the prompt holds an API key/);
      assert.equal(s.server.requests.length, 0, "the model never saw the prompt");
      const { decisions, events } = s.latest();
      const blocked = expectDecision(decisions, "turn.prompt_hook", "hook", "block");
      assert.equal(blocked.reasons[0]?.detail, "the prompt holds an API key");
      assert.equal(
        events.some((e) => e.type === "message.user"),
        false,
        "the blocked message is not in the conversation",
      );
    } finally {
      await s.close();
    }
  });

  it('bosun\'s shape: {"context"} and plain stdout are added for the model beside the prompt', async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const json = hookScript(
        s.ws.home,
        "ctx.sh",
        `P=$(jq -r '.prompt'); jq -n --arg p "$P" '{context: ("ticket for: " + $p)}'`,
      );
      const text = hookScript(s.ws.home, "branch.sh", "cat >/dev/null; echo 'on branch feature/x'");
      s.setUserConfig({ hooks: { user_prompt_submit: [{ command: json }, { command: text }] } });
      const result = await s.run(["run", "fix the bug"]);
      assert.equal(result.code, 0, result.stderr);
      const seen =
        s.server
          .request(1)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(seen, /fix the bug/);
      assert.match(seen, /\[hook hooks\.user_prompt_submit\[0\]\] ticket for: fix the bug/);
      assert.match(seen, /\[hook hooks\.user_prompt_submit\[1\]\] on branch feature\/x/);
      const { decisions } = s.latest();
      expectDecision(decisions, "turn.prompt_hook", "hook", "context");
    } finally {
      await s.close();
    }
  });

  it("a prompt hook that crashes blocks the prompt (code), recorded", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      s.setUserConfig({ hooks: { user_prompt_submit: [{ command: "cat >/dev/null; exit 1" }] } });
      const result = await s.run(["run", "hello"]);
      assert.equal(result.code, 3, result.stderr);
      assert.equal(s.server.requests.length, 0);
      const broken = expectDecision(s.latest().decisions, "turn.prompt_hook", "code", "block");
      assert.match(broken.reasons[0]?.detail ?? "", /exit code 1/);
    } finally {
      await s.close();
    }
  });
});
