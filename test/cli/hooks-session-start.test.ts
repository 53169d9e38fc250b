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

describe("bosun run: session_start hooks (session.start_hook)", () => {
  it("both shapes add context the model reads; a broken one adds nothing and the run goes on", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const claude = hookScript(
        s.ws.home,
        "claude.sh",
        [
          "INPUT=$(cat)",
          "SRC=$(echo \"$INPUT\" | jq -r '.source')",
          '[ "$(echo "$INPUT" | jq -r \'.hook_event_name\')" = SessionStart ] || exit 1',
          'jq -n --arg s "$SRC" \'{hookSpecificOutput: {hookEventName: "SessionStart", additionalContext: ("sprint 9, source " + $s)}}\'',
        ].join("\n"),
      );
      const plain = hookScript(s.ws.home, "plain.sh", "cat >/dev/null; echo 'open issues: 3'");
      s.setUserConfig({
        hooks: { session_start: [{ command: claude }, { command: plain }, { command: "exit 1" }] },
      });
      const result = await s.run(["run", "what next?"]);
      assert.equal(result.code, 0, result.stderr);
      const seen =
        s.server
          .request(1)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(seen, /\[hook hooks\.session_start\[0\]\] sprint 9, source startup/);
      assert.match(seen, /\[hook hooks\.session_start\[1\]\] open issues: 3/);
      const { decisions } = s.latest();
      expectDecision(decisions, "session.start_hook", "hook", "context");
      expectDecision(decisions, "session.start_hook", "code", "failed");
    } finally {
      await s.close();
    }
  });
});
