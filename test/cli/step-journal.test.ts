import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Scenario, startScenario } from "../support/scenario.js";
import { NOTES_SUMMARY } from "../support/summary.js";

/**
 * The loop keeps the session's log in memory and reads only what each step appended; with
 * BOSUN_CHECK_JOURNAL=1 it compares that log, and the conversation it projects, with a fresh read
 * of the journal before and after every request, and fails the run at the first difference.
 */
const CHECKED = { env: { BOSUN_CHECK_JOURNAL: "1" } };

const SUMMARY = NOTES_SUMMARY;

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  toolCalls: [{ id, name, arguments: args }],
});

/** (4000 - 100) × 0.8 = 3120 tokens trigger a compaction (compaction.test.ts). */
function smallWindow(s: Scenario): void {
  const base = s.server.configFor("openai-compatible");
  s.setUserConfig({
    provider: { scripted: { ...base.provider.scripted, models: { "test-model": { context: 4000, output: 100 } } } },
    compaction: { keep_tokens: 0 },
  });
}

describe("the log in memory equals the journal after every step", () => {
  it("in a multi-step run with a compaction inside it, a resumed session and a fork", async () => {
    const s = await startScenario({
      rules: [
        { match: { system: "## Relevant files" }, reply: { text: SUMMARY } },
        { match: { request: 1 }, reply: call("r1", "read", { path: "notes.txt" }) },
        { match: { request: 2 }, reply: call("l1", "list", {}) },
        { match: { request: 3 }, reply: { ...call("w1", "write", { path: "out.txt", content: "x\n" }) } },
        // The measured usage crosses the window: request 5 is the summary, request 6 goes on from it.
        {
          match: { request: 4 },
          reply: { ...call("r2", "read", { path: "out.txt" }), usage: { input: 3200, output: 10 } },
        },
        { match: { request: 6 }, reply: { text: "Read, listed, wrote." } },
        // The resumed session, then its fork: two steps each.
        { match: { request: 7 }, reply: call("r3", "read", { path: "notes.txt" }) },
        { match: { request: 8 }, reply: { text: "Again." } },
        { match: { request: 9 }, reply: call("r4", "read", { path: "out.txt" }) },
        { match: { request: 10 }, reply: { text: "In the fork." } },
      ],
    });
    try {
      smallWindow(s);
      s.ws.write("notes.txt", "hello\n");
      const first = await s.run(["run", "--auto", "read, list, write"], CHECKED);
      assert.equal(first.code, 0, first.stderr);
      assert.doesNotMatch(first.stderr, /drifted/);
      const { events, id } = s.latest();
      assert.ok(
        events.some((e) => e.type === "compaction.checkpoint"),
        "the run compacted",
      );
      assert.match(s.server.request(6).normalized?.messages[0]?.text ?? "", /Summary of the conversation so far/);

      const resumed = await s.run(["run", "--auto", "-s", id, "again"], CHECKED);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.doesNotMatch(resumed.stderr, /drifted/);

      const forked = await s.run(["run", "--auto", "-s", id, "--fork", "in a copy"], CHECKED);
      assert.equal(forked.code, 0, forked.stderr);
      assert.doesNotMatch(forked.stderr, /drifted/);
      assert.notEqual(s.latest().id, id, "the last run was in a fork");
      assert.equal(s.server.requests.length, 10);
    } finally {
      await s.close();
    }
  });
});
