import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { type Scenario, startScenario } from "../support/scenario.js";
import { NOTES_SUMMARY } from "../support/summary.js";

const SUMMARY = NOTES_SUMMARY;

/** The summary request has no tools and a system prompt naming the sections. */
const summary = (reply: { text: string } | Array<{ text: string }>) => ({
  match: { system: "## Relevant files" },
  reply,
});

/**
 * The scripted model with a small known window: (4000 - 100) × 0.8 = 3120 tokens trigger a
 * compaction (the system prompt and tools alone are about 1,200).
 */
function smallWindow(s: Scenario, extra: Record<string, unknown> = {}): void {
  const base = s.server.configFor("openai-compatible");
  s.setUserConfig({
    provider: { scripted: { ...base.provider.scripted, models: { "test-model": { context: 4000, output: 100 } } } },
    compaction: { keep_tokens: 0 },
    ...extra,
  });
}

const readNotes = (id: string) => ({ toolCalls: [{ id, name: "read", arguments: { path: "notes.txt" } }] });

describe("compaction during a run", () => {
  it("compacts before a request once the measured usage reaches the threshold; the history stays exportable", async () => {
    const s = await startScenario({
      rules: [
        summary({ text: SUMMARY }),
        { match: { request: 1 }, reply: { ...readNotes("r1"), usage: { input: 3200, output: 10 } } },
        { match: { request: 3 }, reply: { text: "The notes say hello." } },
      ],
    });
    try {
      smallWindow(s);
      s.ws.write("notes.txt", "hello\n");
      const result = await s.run(["run", "read the notes"]);
      assert.equal(result.code, 0, result.stderr);

      // Request 2 is the summary; request 3 continues from it.
      const summaryRequest = s.server.request(2).normalized;
      assert.deepEqual(summaryRequest?.tools, []);
      const after = s.server.request(3).normalized?.messages ?? [];
      assert.match(after[0]?.text ?? "", /Summary of the conversation so far[\s\S]*## Goal\nRead the notes\./);
      assert.ok(!after.some((m) => m.text === "read the notes"), "the summarised message is not sent again");

      const { decisions, events, id } = s.latest();
      const trigger = expectDecision(decisions, "compaction.trigger", "config", "compact");
      assert.ok(
        trigger.reasons.some((r) =>
          /3120 tokens = \(window 4000 - output reserve 100\) × threshold 0\.8/.test(r.detail ?? ""),
        ),
      );
      const made = expectDecision(decisions, "compaction.summary", "model");
      assert.equal((made.answer as { model: string }).model, "scripted/test-model");
      assert.ok(events.some((e) => e.type === "compaction.checkpoint"));

      const exported = await s.run(["sessions", "export", id]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(exported.stdout, /read the notes/);
      assert.match(exported.stdout, /compaction\.checkpoint/);
    } finally {
      await s.close();
    }
  });

  it("a summary missing a section is asked for again, then the compaction fails cleanly", async () => {
    const partial = SUMMARY.replace("## Next step\nAnswer.\n", "");
    const s = await startScenario({
      rules: [
        summary([{ text: partial }, { text: partial }]),
        { match: { request: 1 }, reply: { ...readNotes("r1"), usage: { input: 3200, output: 10 } } },
      ],
    });
    try {
      smallWindow(s);
      s.ws.write("notes.txt", "hello\n");
      const result = await s.run(["run", "read the notes"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /compaction failed: .*Next step/);
      assert.match(s.server.request(3).normalized?.messages.at(-1)?.text ?? "", /Next step/);
      const { decisions, events } = s.latest();
      expectDecision(decisions, "compaction.summary", "code", "failed");
      assert.ok(!events.some((e) => e.type === "compaction.checkpoint"));
    } finally {
      await s.close();
    }
  });

  it("a request refused as too long is compacted once and retried; a second refusal in the step is an error", async () => {
    const overflow = { error: { status: 400, body: { error: { message: "maximum context length exceeded" } } } };
    const s = await startScenario({
      rules: [
        summary({ text: SUMMARY }),
        { match: { request: 1 }, reply: readNotes("r1") },
        { match: { request: 2 }, reply: overflow },
        { match: { request: 4 }, reply: { text: "Done after compacting." } },
        { match: { lastMessage: "again" }, reply: readNotes("r2") },
        { match: { request: 6 }, reply: overflow },
        { match: { request: 8 }, reply: overflow },
      ],
    });
    try {
      const base = s.server.configFor("openai-compatible");
      s.setUserConfig({
        provider: { scripted: { ...base.provider.scripted } },
        compaction: { keep_tokens: 0 },
        retry: { max_attempts: 1 },
      });
      s.ws.write("notes.txt", "hello\n");
      const first = await s.run(["run", "read the notes"]);
      assert.equal(first.code, 0, first.stderr);
      let { decisions } = s.latest();
      const trigger = expectDecision(decisions, "compaction.trigger", "code", "compact");
      assert.match(trigger.reasons[0]?.detail ?? "", /refused the request as longer than the context window/);
      expectDecision(decisions, "compaction.summary", "model");

      const second = await s.run(["run", "-c", "again"]);
      assert.equal(second.code, 1, second.stderr);
      assert.match(second.stderr, /still too long for the model's context window after compacting/);
      ({ decisions } = s.latest());
      assert.equal(decisions.filter((d) => d.seat === "compaction.summary").length, 2);
    } finally {
      await s.close();
    }
  });

  it("with compaction.auto false, an overflow is an error that says so", async () => {
    const s = await startScenario({
      rules: [{ reply: { error: { status: 400, body: { error: { message: "maximum context length exceeded" } } } } }],
    });
    try {
      const base = s.server.configFor("openai-compatible");
      s.setUserConfig({
        provider: { scripted: { ...base.provider.scripted } },
        compaction: { auto: false },
        retry: { max_attempts: 1 },
      });
      const result = await s.run(["run", "hello"]);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /compaction\.auto is false/);
      assert.equal(s.server.requests.length, 1);
    } finally {
      await s.close();
    }
  });

  it("prunes old tool outputs past the budget, oldest first, and records it", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "first" }, reply: readNotes("r1") },
        { match: { lastMessage: "tool_result r1" }, reply: { text: "Read it." } },
        { match: { lastMessage: "second" }, reply: readNotes("r2") },
        { match: { lastMessage: "tool_result r2" }, reply: { text: "Read it again." } },
        { match: { lastMessage: "third" }, reply: { text: "Done." } },
      ],
    });
    try {
      const base = s.server.configFor("openai-compatible");
      s.setUserConfig({ provider: { scripted: { ...base.provider.scripted } }, compaction: { prune_tokens: 300 } });
      s.ws.write("notes.txt", `${"x".repeat(1000)}\n`);
      for (const [i, message] of ["first", "second", "third"].entries()) {
        const result = await s.run(i === 0 ? ["run", message] : ["run", "-c", message]);
        assert.equal(result.code, 0, result.stderr);
      }
      const last = s.server.requests.at(-1)?.normalized?.messages ?? [];
      const r1 = last.find((m) => m.text.startsWith("tool_result r1"));
      const r2 = last.find((m) => m.text.startsWith("tool_result r2"));
      assert.match(r1?.text ?? "", /\[output of read r1 pruned: ~\d+ tokens; the session store keeps it\]/);
      assert.match(r2?.text ?? "", /x{1000}/);
      const pruned = expectDecision(s.latest().decisions, "context.prune", "config");
      assert.deepEqual((pruned.answer as { pruned: number }).pruned, 1);
      assert.ok(
        pruned.reasons.some((r) => /read r1 ~\d+/.test(r.detail ?? "")),
        JSON.stringify(pruned.reasons),
      );
      // The store keeps the whole output.
      const finished = s
        .latest()
        .events.find((e) => e.type === "call.finished" && (e.data as { id: string }).id === "r1");
      assert.match((finished?.data as { output?: string } | undefined)?.output ?? "", /x{1000}/);
    } finally {
      await s.close();
    }
  });
});
