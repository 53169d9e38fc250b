import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readDecisions } from "../../src/seats/record.js";
import { SessionStore } from "../../src/store/session-store.js";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

function hookScript(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

const task = (agent: string, prompt: string) => ({ name: "task", arguments: { agent, prompt } });

describe("bosun run: subagent_stop hooks (turn.stop_hook of a delegate)", () => {
  it("send a delegate back to work once (Claude Code's SubagentStop shape); the parent's turn has none", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "go" }, reply: { toolCalls: [task("plan", "CHILD: look at a.txt")] } },
        { match: { lastMessage: "CHILD:" }, reply: { text: "child done" } },
        { match: { lastMessage: "look closer" }, reply: { text: "child looked closer" } },
        { reply: { text: "parent done" } },
      ],
    });
    try {
      const hook = hookScript(
        s.ws.home,
        "sub.sh",
        [
          "INPUT=$(cat)",
          '[ "$(echo "$INPUT" | jq -r \'.hook_event_name\')" = SubagentStop ] || exit 1',
          '[ "$(echo "$INPUT" | jq -r \'.agent\')" = plan ] || exit 1',
          'if [ "$(echo "$INPUT" | jq -r \'.stop_hook_active\')" = true ]; then exit 0; fi',
          'jq -n \'{decision: "block", reason: "look closer"}\'',
        ].join("\n"),
      );
      s.setUserConfig({ hooks: { subagent_stop: [{ command: hook }] } });
      const result = await s.run(["run", "go"]);
      assert.equal(result.code, 0, result.stderr);
      const last =
        s.server.requests
          .at(-1)
          ?.normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(last, /child looked closer/, "the parent got the delegate's answer after it was sent back");
      const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
      try {
        const all = store.list();
        const child = all.find((x) => x.parentId);
        const parent = all.find((x) => !x.parentId);
        assert.ok(child, "a delegate ran");
        const decisions = readDecisions(store, child.id);
        const blocked = expectDecision(decisions, "turn.stop_hook", "hook", "block");
        assert.equal(blocked.subject?.event, "subagent_stop");
        expectDecision(decisions, "turn.stop_hook", "hook", "done");
        assert.equal(
          readDecisions(store, parent?.id ?? "").some((d) => d.seat === "turn.stop_hook"),
          false,
          "subagent_stop hooks do not judge the parent's end",
        );
      } finally {
        store.close();
      }
    } finally {
      await s.close();
    }
  });
});
