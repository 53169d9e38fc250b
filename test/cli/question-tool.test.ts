import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { KEYS, spawnPty } from "../support/pty.js";
import { sentText, startScenario } from "../support/scenario.js";
import { startTmux } from "../support/tmux.js";
import { BOSUN_BIN } from "../support/workspace.js";

/** The question tool: the person answers (a terminal's prompt, the TUI's dialog); nobody there, the model is told so (seat call.question). */

const asks = {
  rules: [
    {
      match: { request: 1 },
      reply: {
        toolCalls: [
          { id: "q1", name: "question", arguments: { question: "Tabs or spaces?", options: ["tabs", "spaces"] } },
        ],
      },
    },
    { match: { request: 2 }, reply: { text: "Noted." } },
  ],
};

describe("the question tool", () => {
  it("with nobody there, is an error result the model can act on, recorded with holder code", async () => {
    const s = await startScenario(asks);
    try {
      const result = await s.run(["run", "ask me"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(sentText(s, 2), /Nobody can answer questions in this run/);
      const { decisions } = s.latest();
      const decided = expectDecision(decisions, "call.question", "code", "nobody");
      assert.equal(decided.subject?.call, "q1");
      // Asking needs no permission: nothing was asked of the rules that could deny it.
      assert.ok(!decisions.some((d) => d.seat === "call.permission" && d.answer === "deny"));
    } finally {
      await s.close();
    }
  });

  it("at a terminal, the person picks an option; the model gets it, the ledger only that one was picked", async () => {
    const s = await startScenario(asks);
    const p = spawnPty(process.execPath, [BOSUN_BIN, "run", "ask me"], {
      cwd: s.ws.dir,
      env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
      cols: 160,
    });
    try {
      await p.waitForText(/The agent asks you/);
      await p.waitForText(/Tabs or spaces\?/);
      await p.waitForText(/Answer it\?/);
      p.write(KEYS.enter);
      await p.waitForText(/Pick one/);
      p.write(KEYS.down);
      p.write(KEYS.enter);
      await p.waitForText(/Or in your own words/);
      p.write(KEYS.enter);
      await p.waitForText(/Noted\./);
      assert.equal(await p.exit(), 0, p.text());
      assert.match(sentText(s, 2), /The person chose: spaces/);
      const decided = expectDecision(s.latest().decisions, "call.question", "person", "answered");
      assert.match(JSON.stringify(decided.reasons), /1 option/);
      assert.doesNotMatch(JSON.stringify(decided), /spaces/, "the ledger keeps the kind of answer, not its words");
    } finally {
      p.kill();
      await p.exit(5_000).catch(() => undefined);
      await s.close();
    }
  });

  it("in the TUI (tmux), the dialog takes an answer in the person's own words; declining is said to the model", async () => {
    const s = await startScenario({
      rules: [
        ...asks.rules.slice(0, 1),
        { match: { request: 2 }, reply: { text: "Noted." } },
        {
          match: { request: 3 },
          reply: { toolCalls: [{ id: "q2", name: "question", arguments: { question: "Which port?" } }] },
        },
        { match: { request: 4 }, reply: { text: "Fine." } },
      ],
    });
    const term = startTmux({ cwd: s.ws.dir, env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false", CI: "true" } });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("ask me");
      await term.waitFor(/The agent asks you/);
      await term.waitFor(/a answer/);
      term.type("a", false);
      await term.waitFor(/1\/2 Pick one/);
      term.keys("Enter");
      await term.waitFor(/2\/2 Or in your own words/);
      term.type("two spaces, never tabs");
      await term.waitFor(/Noted\./);
      assert.match(sentText(s, 2), /The person answered: two spaces, never tabs/);
      expectDecision(s.latest().decisions, "call.question", "person", "answered");

      term.type("again");
      await term.waitFor(/Which port\?/);
      await term.waitFor(/a answer/);
      term.type("d", false);
      await term.waitFor(/Fine\./);
      const sent =
        s.server.requests
          .at(-1)
          ?.normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(sent, /The person declined to answer/);
      expectDecision(s.latest().decisions, "call.question", "person", "declined");
      term.type("/exit");
    } finally {
      term.kill();
      await s.close();
    }
  });
});
