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

const toModel = (s: Awaited<ReturnType<typeof startScenario>>, n: number) =>
  s.server
    .request(n)
    .normalized?.messages.map((m) => m.text)
    .join("\n") ?? "";

const ended = (events: Array<{ type: string; data: unknown }>) =>
  events.filter((e) => e.type === "turn.ended").at(-1)?.data as { status: string; message?: string } | undefined;

describe("bosun run: stop hooks (turn.stop_hook)", () => {
  it("Claude Code's Stop shape: blocks once with a reason, the agent goes back to work, then it ends", async () => {
    const s = await startScenario({
      rules: [{ match: { request: 1 }, reply: { text: "Done." } }, { reply: { text: "Tests pass now. Done." } }],
    });
    try {
      // The Claude Code guide's loop guard: block unless a stop hook already sent it back.
      const stop = hookScript(
        s.ws.home,
        "stop.sh",
        [
          "INPUT=$(cat)",
          '[ "$(echo "$INPUT" | jq -r \'.hook_event_name\')" = Stop ] || exit 1',
          'if [ "$(echo "$INPUT" | jq -r \'.stop_hook_active\')" = true ]; then exit 0; fi',
          'jq -n \'{decision: "block", reason: "run the tests first"}\'',
        ].join("\n"),
      );
      s.setUserConfig({ hooks: { stop: [{ command: stop }] } });
      const result = await s.run(["run", "finish the task"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 2, "sent back to work once");
      assert.match(toModel(s, 2), /run the tests first/);
      const { decisions, events } = s.latest();
      const blocked = expectDecision(decisions, "turn.stop_hook", "hook", "block");
      assert.equal(blocked.reasons[0]?.detail, "run the tests first");
      assert.equal(blocked.subject?.hook, "hooks.stop[0]");
      expectDecision(decisions, "turn.stop_hook", "hook", "done");
      assert.equal(ended(events)?.status, "done");
    } finally {
      await s.close();
    }
  });

  it("bosun's shape: exit 2 blocks with stderr; sent_back counts; past hooks.stop_limit the turn stops (exit 3)", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const stop = hookScript(s.ws.home, "stop.sh", `N=$(jq -r '.sent_back'); echo "not yet ($N)" >&2; exit 2`);
      s.setUserConfig({ hooks: { stop: [{ command: stop }], stop_limit: 1 } });
      const result = await s.run(["run", "finish the task"]);
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, /stop hooks sent the agent back 1 time\(s\)/);
      assert.equal(s.server.requests.length, 2);
      assert.match(toModel(s, 2), /not yet \(0\)/);
      const { decisions, events } = s.latest();
      expectDecision(decisions, "turn.stop_hook", "hook", "block");
      const limit = expectDecision(decisions, "turn.stop_hook", "config", "stop");
      assert.equal(limit.reasons[0]?.key, "hooks.stop_limit");
      assert.equal(ended(events)?.status, "limit");
    } finally {
      await s.close();
    }
  });

  for (const [what, hook] of [
    ["crashes", { command: "cat >/dev/null; echo boom >&2; exit 1" }],
    ["times out", { command: "sleep 5", timeout_ms: 300 }],
  ] as const) {
    it(`a stop hook that ${what} does not make the turn done: it fails (exit 1), recorded`, async () => {
      const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
      try {
        s.setUserConfig({ hooks: { stop: [hook] } });
        const result = await s.run(["run", "finish the task"]);
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, /a stop hook \(hooks\.stop\[0\]\) failed/);
        assert.equal(s.server.requests.length, 1);
        const { decisions, events } = s.latest();
        const failed = expectDecision(decisions, "turn.stop_hook", "code", "failed");
        assert.match(failed.reasons[0]?.detail ?? "", what === "crashes" ? /exit code 1: boom/ : /timed out/);
        assert.equal(ended(events)?.status, "failed");
      } finally {
        await s.close();
      }
    });
  }
});
