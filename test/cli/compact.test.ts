import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario, waitFor } from "../support/scenario.js";

const GOOD = [
  "## Goal",
  "Fix add() in math.js.",
  "## Decisions",
  "Fix the code, not the test.",
  "## State of work",
  "add() fixed.",
  "## Next step",
  "Update the docs.",
  "## Relevant files",
  "- math.js",
].join("\n");

/** Requests of `bosun run` are offered tools; the summary request is not, and its system prompt names the sections. */
const summaryRule = (reply: { text: string } | Array<{ text: string }>) => ({
  match: { system: "## Relevant files" },
  reply,
});

describe("bosun compact", () => {
  it("summarises the older history into a checkpoint and keeps every event", async () => {
    const s = await startScenario({
      rules: [
        summaryRule({ text: GOOD }),
        {
          match: { request: 1 },
          reply: { text: "Let me look.", toolCalls: [{ id: "c1", name: "read", arguments: { path: "math.js" } }] },
        },
        { match: { request: 2 }, reply: { text: "Fixed add()." } },
        { match: { lastMessage: "now the docs" }, reply: { text: "Docs updated." } },
      ],
    });
    try {
      s.ws.write("math.js", "export function add(a, b) {\n  return a - b;\n}\n");
      const first = await s.run(["run", "--auto", "fix add"]);
      assert.equal(first.code, 0, first.stderr);
      const second = await s.run(["run", "-c", "now the docs"]);
      assert.equal(second.code, 0, second.stderr);
      const { id, events: before } = s.latest();

      const result = await s.run(["compact", id.slice(0, 10)]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(
        result.stdout,
        new RegExp(
          `^compacted ${id}: ~\\d+ → ~\\d+ tokens \\(estimated\\); summary by scripted/test-model, 2 message\\(s\\) kept verbatim from event \\d+`,
        ),
      );

      // The summary request: no tools, the sections asked for, the older exchange sent, the kept one not.
      const request = s.server.requests.at(-1);
      const normalized = request?.normalized;
      assert.ok(normalized);
      assert.equal(s.server.requests.length, 4);
      assert.deepEqual(normalized.tools, []);
      for (const heading of ["## Goal", "## Decisions", "## State of work", "## Next step", "## Relevant files"]) {
        assert.ok(normalized.system.includes(heading), `${heading} in the system prompt`);
        assert.ok(normalized.messages.at(-1)?.text.includes(heading), `${heading} in the instruction`);
      }
      const sent = normalized.messages.map((m) => m.text).join("\n");
      assert.match(sent, /fix add/);
      assert.match(sent, /\[call read c1\]/);
      assert.match(sent, /\[result of read c1\]\n[\s\S]*return a - b/);
      assert.doesNotMatch(sent, /now the docs/);

      const after = s.latest();
      const checkpoint = after.events.find((e) => e.type === "compaction.checkpoint");
      assert.ok(checkpoint, "a compaction.checkpoint event");
      const data = checkpoint.data as { summary: string; keptFrom: number; reason: string; model: string };
      assert.equal(data.summary, GOOD);
      assert.equal(data.reason, "manual");
      assert.equal(data.model, "scripted/test-model");
      const kept = before.find((_, i) => i + 1 === data.keptFrom);
      assert.deepEqual(kept, { type: "message.user", data: { text: "now the docs" } });
      expectDecision(after.decisions, "compaction.summary", "model");

      // History is never deleted: the export still holds every earlier event.
      const exported = await s.run(["sessions", "export", id]);
      assert.equal(exported.code, 0, exported.stderr);
      const file = JSON.parse(exported.stdout) as { events: Array<{ type: string; data: unknown }> };
      assert.deepEqual(
        file.events.slice(0, before.length).map((e) => ({ type: e.type, data: e.data })),
        before,
      );
      assert.ok(file.events.some((e) => e.type === "compaction.checkpoint"));

      const why = await s.run(["why", id, "--seat", "compaction.*"]);
      assert.equal(why.code, 0, why.stderr);
      assert.match(why.stdout, /^ +compaction\.summary +model +\S/m);
    } finally {
      await s.close();
    }
  });

  it("fails with exit 1 when the summary still lacks a section, and writes no checkpoint", async () => {
    const s = await startScenario({
      rules: [
        summaryRule([{ text: "## Goal\nFix add().\n" }, { text: "A summary without sections." }]),
        { match: { request: 1 }, reply: { text: "Fixed." } },
        { match: { request: 2 }, reply: { text: "Done too." } },
      ],
    });
    try {
      assert.equal((await s.run(["run", "fix add"])).code, 0);
      assert.equal((await s.run(["run", "-c", "and the docs"])).code, 0);
      const { id } = s.latest();
      const result = await s.run(["compact", id]);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(
        result.stderr,
        /^bosun: compaction of \S+ failed: the summary from scripted\/test-model still lacks "## Goal"/,
      );
      // Asked twice; the second time it was told what was missing.
      assert.equal(s.server.requests.length, 4);
      assert.match(s.server.requests.at(-1)?.normalized?.messages.at(-1)?.text ?? "", /missing "## Decisions"/);
      const after = s.latest();
      assert.ok(!after.events.some((e) => e.type === "compaction.checkpoint"));
      expectDecision(after.decisions, "compaction.summary", "code", "failed");
    } finally {
      await s.close();
    }
  });

  it("refuses an unknown session and a session in use (exit 2)", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [
              {
                id: "nap",
                name: "shell",
                arguments: { command: "for i in $(seq 600); do [ -f wake ] && exit 0; sleep 0.1; done" },
              },
            ],
          },
        },
        { reply: { text: "Rested." } },
      ],
    });
    try {
      const unknown = await s.run(["compact", "nosuchsession"]);
      assert.equal(unknown.code, 2, unknown.stderr);
      assert.match(unknown.stderr, /no session matches "nosuchsession"/);

      const { result } = s.spawn(["run", "--auto", "take a nap"]);
      await waitFor(() => (s.latest().events.some((e) => e.type === "call.started") ? true : undefined));
      const busy = await s.run(["compact", s.latest().id]);
      assert.equal(busy.code, 2, busy.stderr);
      assert.match(busy.stderr, /is in use by bosun pid \d+/);
      s.ws.write("wake", "");
      assert.equal((await result).code, 0);
      assert.equal(s.server.requests.length, 2, "the refused compaction asked no model");
    } finally {
      await s.close();
    }
  });
});
