import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { KEYS, spawnPty } from "../support/pty.js";
import { startScenario } from "../support/scenario.js";
import { BOSUN_BIN } from "../support/workspace.js";

function hookScript(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("waited in vain");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("bosun run at a terminal: notification hooks (person.notify)", () => {
  it("are told, in both shapes, while the approval prompt waits; the ask does not wait for them", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "touch x" } }] },
        },
        { reply: { text: "All done." } },
      ],
    });
    const told = join(s.ws.home, "told.json");
    // It sleeps past the answer: fire-and-forget means the ask and the turn go on meanwhile.
    const hook = hookScript(s.ws.home, "notify.sh", `cat > ${told}.tmp; mv ${told}.tmp ${told}`);
    const slow = hookScript(s.ws.home, "slow.sh", "cat >/dev/null; sleep 3");
    s.setUserConfig({ hooks: { notification: [{ command: hook }, { command: slow, timeout_ms: 300 }] } });
    const p = spawnPty(process.execPath, [BOSUN_BIN, "run", "make x"], {
      cwd: s.ws.dir,
      env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
      cols: 200,
    });
    try {
      await p.waitForText(/Allow this call\?/);
      await until(() => existsSync(told));
      const payload = JSON.parse(readFileSync(told, "utf8"));
      assert.equal(payload.event, "notification");
      assert.equal(payload.hook_event_name, "Notification");
      assert.equal(payload.notification_type, "permission_prompt");
      assert.equal(payload.message, "bosun needs your approval to use shell");
      assert.equal(payload.call_id, "c1");
      // Past the slow hook's timeout, so its failure is on record before the run ends.
      await new Promise((r) => setTimeout(r, 900));
      p.write(KEYS.enter);
      await p.waitForText(/All done\./);
      assert.equal(await p.exit(), 0, p.text());
      const { decisions } = s.latest();
      const notified = expectDecision(decisions, "person.notify", "hook", "notified");
      assert.equal(notified.subject?.call, "c1");
      expectDecision(decisions, "person.notify", "code", "failed");
    } finally {
      p.kill();
      await p.exit(5_000).catch(() => undefined);
      await s.close();
    }
  });
});
