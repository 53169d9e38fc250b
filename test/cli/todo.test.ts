import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { sentText, startScenario } from "../support/scenario.js";
import { NOTES_SUMMARY } from "../support/summary.js";
import { startTmux } from "../support/tmux.js";

/** The todo tool: the agent's plan, in the JSON stream and the TUI, reminded of at the turn's end, kept by a compaction. */

const plan = (items: Array<[string, string]>) => ({
  toolCalls: [
    {
      id: `t${items.length}`,
      name: "todo",
      arguments: { items: items.map(([content, status]) => ({ content, status })) },
    },
  ],
});

describe("the todo tool", () => {
  it("open items at the end get one reminder (turn.done); the list is in the JSON stream", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: plan([
            ["read the notes", "done"],
            ["fix the typo", "in_progress"],
          ]),
        },
        { match: { request: 2 }, reply: { text: "All done." } },
        { match: { request: 3 }, reply: { text: "The typo is in a file I may not edit, so it stays open." } },
      ],
    });
    try {
      const result = await s.run(["run", "--format", "json", "tidy up"]);
      assert.equal(result.code, 0, result.stderr);
      const events = s.events(result);
      const call = events.find((e) => e.type === "tool_call" && e.name === "todo");
      assert.ok(call, "a todo tool_call event");
      assert.deepEqual((call.input as { items: unknown[] }).items, [
        { content: "read the notes", status: "done" },
        { content: "fix the typo", status: "in_progress" },
      ]);
      const finished = events.find((e) => e.type === "tool_result" && e.name === "todo");
      assert.equal(finished?.summary, "todo (1 of 2 done)");
      assert.match(sentText(s, 2), /Todo list \(1 of 2 done\):\n\[x\] read the notes\n\[~\] fix the typo/);
      assert.match(sentText(s, 3), /Your todo list still has open items:\n\[~\] fix the typo\nFinish them/);
      assert.equal(s.server.requests.length, 3, "reminded once, then the model's word stands");
      const { decisions } = s.latest();
      const reminded = expectDecision(decisions, "turn.done", "code", "remind-todo");
      assert.match(JSON.stringify(reminded.reasons), /1 not done \(fix the typo\)/);
      const done = expectDecision(decisions, "turn.done", "model", "done");
      assert.match(JSON.stringify(done.reasons), /1 left open after the reminder/);
    } finally {
      await s.close();
    }
  });

  it("a compaction keeps the list: the checkpoint's summary ends with it", async () => {
    const s = await startScenario({
      rules: [
        { match: { system: "## Relevant files" }, reply: { text: NOTES_SUMMARY } },
        {
          match: { request: 1 },
          reply: {
            ...plan([
              ["write the tests", "pending"],
              ["run them", "pending"],
            ]),
            usage: { input: 3200, output: 10 },
          },
        },
        {
          match: { request: 3 },
          reply: plan([
            ["write the tests", "done"],
            ["run them", "done"],
          ]),
        },
        { match: { request: 4 }, reply: { text: "Both done." } },
      ],
    });
    try {
      const base = s.server.configFor("openai-compatible");
      s.setUserConfig({
        provider: { scripted: { ...base.provider.scripted, models: { "test-model": { context: 4000, output: 100 } } } },
        compaction: { keep_tokens: 0 },
      });
      const result = await s.run(["run", "plan it"]);
      assert.equal(result.code, 0, result.stderr);
      const checkpoint = s.latest().events.find((e) => e.type === "compaction.checkpoint");
      assert.ok(checkpoint, "compacted");
      assert.match(
        (checkpoint.data as { summary: string }).summary,
        /## Todo list \(as it stood\)\n\[ \] write the tests\n\[ \] run them$/,
      );
      assert.match(sentText(s, 3), /## Todo list \(as it stood\)/);
    } finally {
      await s.close();
    }
  });

  it("the TUI shows the plan above the input while items are open (tmux)", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: plan([
            ["look around", "in_progress"],
            ["write it up", "pending"],
          ]),
        },
        { match: { request: 2 }, reply: { text: "Working on it." } },
        { match: { request: 3 }, reply: { text: "Still two open: waiting for you." } },
        {
          match: { request: 4 },
          reply: plan([
            ["look around", "done"],
            ["write it up", "done"],
          ]),
        },
        { match: { request: 5 }, reply: { text: "Finished." } },
      ],
    });
    const term = startTmux({ cwd: s.ws.dir, env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false", CI: "true" } });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("plan it");
      await term.waitFor(/plan · 0\/2 done\s*\n\s*▸ look around\s*\n\s*· write it up/);
      await term.waitFor(/Still two open/);
      term.type("finish");
      await term.waitFor(/Finished\./);
      assert.doesNotMatch(term.screen(), /plan · /, "the panel goes once every item is done");
      term.type("/exit");
    } finally {
      term.kill();
      await s.close();
    }
  });
});
