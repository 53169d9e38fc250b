import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { NOTES_SUMMARY } from "../support/summary.js";

function hookScript(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe("bosun run: pre_compact hooks (compaction.hook)", () => {
  it("are told before bosun compacts (Claude Code's PreCompact shape); their output adds to the summary's instructions", async () => {
    const s = await startScenario({
      rules: [
        { match: { system: "## Relevant files" }, reply: { text: NOTES_SUMMARY } },
        {
          match: { request: 1 },
          reply: {
            toolCalls: [{ id: "r1", name: "read", arguments: { path: "notes.txt" } }],
            usage: { input: 3200, output: 10 },
          },
        },
        { match: { request: 3 }, reply: { text: "The notes say hello." } },
      ],
    });
    try {
      const told = join(s.ws.home, "told.json");
      const claude = hookScript(
        s.ws.home,
        "pre.sh",
        `cat > ${told}; [ "$(jq -r '.hook_event_name' ${told})" = PreCompact ] || exit 1; echo "Keep every file path."`,
      );
      const base = s.server.configFor("openai-compatible");
      s.setUserConfig({
        provider: { scripted: { ...base.provider.scripted, models: { "test-model": { context: 4000, output: 100 } } } },
        compaction: { keep_tokens: 0 },
        hooks: { pre_compact: [{ command: claude }, { command: "exit 3" }] },
      });
      s.ws.write("notes.txt", "hello\n");
      const result = await s.run(["run", "read the notes"]);
      assert.equal(result.code, 0, result.stderr);
      const summaryRequest =
        s.server
          .request(2)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(summaryRequest, /Also follow these instructions for the summary:\nKeep every file path\./);
      const { decisions } = s.latest();
      expectDecision(decisions, "compaction.hook", "hook", "instructions");
      expectDecision(decisions, "compaction.hook", "code", "failed");
      expectDecision(decisions, "compaction.summary", "model");
    } finally {
      await s.close();
    }
  });
});
