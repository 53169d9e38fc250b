import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
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

  it("are told of `bosun compact` too (trigger manual); an untrusted repository's hook is judged and not run", async () => {
    const s = await startScenario({
      rules: [
        { match: { system: "## Relevant files" }, reply: { text: NOTES_SUMMARY } },
        { match: { request: 1 }, reply: { text: "First answer." } },
        { match: { request: 2 }, reply: { text: "Second answer." } },
      ],
    });
    try {
      const told = join(s.ws.home, "told.json");
      const mine = hookScript(s.ws.home, "pre.sh", `cat > ${told}; echo "Name the tests that were run."`);
      const ran = join(s.ws.home, "repo-hook-ran");
      const repoHook = hookScript(s.ws.dir, "repo-pre.sh", `touch ${ran}`);
      s.setUserConfig({ hooks: { pre_compact: [{ command: mine }] } });
      s.ws.write("bosun.json", JSON.stringify({ hooks: { pre_compact: [{ command: repoHook }] } }));
      assert.equal((await s.run(["run", "one"])).code, 0);
      assert.equal((await s.run(["run", "-c", "two"])).code, 0);
      const { id } = s.latest();
      const result = await s.run(["compact", id]);
      assert.equal(result.code, 0, result.stderr);
      const payload = JSON.parse(readFileSync(told, "utf8")) as Record<string, unknown>;
      assert.equal(payload.trigger, "manual");
      assert.equal(payload.hook_event_name, "PreCompact");
      assert.equal(payload.session_id, id);
      const summaryRequest =
        s.server.requests
          .at(-1)
          ?.normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(summaryRequest, /Also follow these instructions for the summary:\nName the tests that were run\./);
      assert.equal(existsSync(ran), false, "the untrusted repository's hook did not run");
      assert.match(result.stderr, /not running hooks\.pre_compact\[0\]/);
      const { decisions } = s.latest();
      const hooked = decisions.filter((d) => d.seat === "compaction.hook");
      assert.equal(hooked.length, 1);
      expectDecision(hooked, "compaction.hook", "hook", "instructions");
      expectDecision(decisions, "project.command", "code");
    } finally {
      await s.close();
    }
  });
});
