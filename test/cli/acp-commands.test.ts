import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { methods, type SessionNotification } from "@agentclientprotocol/sdk";
import { startAcp } from "../support/acp-client.js";
import { expectDecision } from "../support/ledger.js";
import { sentText, startScenario, waitFor } from "../support/scenario.js";

/** Fails the first time, passes from then on. */
const FLAKY_ONCE = "if [ -f .tried ]; then exit 0; fi; touch .tried; echo 'FAIL: not yet'; exit 1";

const commandsOf = (updates: readonly SessionNotification[]) =>
  updates.flatMap((n) => (n.update.sessionUpdate === "available_commands_update" ? [n.update.availableCommands] : []));

const repliesOf = (updates: readonly SessionNotification[]) =>
  updates.flatMap((n) =>
    n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text" ? [n.update.content.text] : [],
  );

describe("bosun acp: slash commands in the editor's thread (seat input.command, the person's)", () => {
  it("offers /goal, /init and the custom commands; runs a command's message, a /goal to its end, /init; says where the others live", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    mkdirSync(join(s.ws.home, "commands"), { recursive: true });
    writeFileSync(
      join(s.ws.home, "commands", "hi.md"),
      "---\ndescription: greet someone\n---\nGreet $ARGUMENTS. Span: !`echo span-ran`\n",
    );
    s.ws.write(
      ".bosun/commands/peek.md",
      "---\ndescription: a repository's command\n---\nMade: !`touch peeked.txt && echo made`\n",
    );
    s.ws.write(".bosun/commands/planner.md", "---\nagent: plan\n---\nPlan it\n");
    const editor = startAcp(s);
    try {
      await editor.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await editor.agent.request(methods.agent.session.new, { cwd: s.ws.dir, mcpServers: [] });
      const [offered] = await waitFor(() => {
        const got = commandsOf(editor.updates);
        return got.length > 0 ? got : undefined;
      });
      const names = (offered ?? []).map((c) => c.name);
      assert.deepEqual(names.slice(0, 2), ["init", "goal"]);
      for (const name of ["hi", "peek", "planner"]) assert.ok(names.includes(name), name);
      assert.ok(!names.includes("model") && !names.includes("undo"), names.join(","));
      assert.equal(offered?.find((c) => c.name === "hi")?.description, "greet someone");
      const prompt = (text: string) =>
        editor.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

      // A custom command of the person's own: its span runs as theirs, the message goes to the model.
      assert.equal((await prompt("/hi the team")).stopReason, "end_turn");
      assert.equal(s.server.requests.length, 1);
      assert.match(sentText(s, 1), /Greet the team\. Span: span-ran/);

      // A repository's command: its span is judged like any shell call, asked in the editor; rejected, not run.
      assert.equal((await prompt("/peek")).stopReason, "end_turn");
      assert.equal(editor.asked.length, 1);
      assert.equal(existsSync(join(s.ws.dir, "peeked.txt")), false);
      assert.match(sentText(s, 2), /Made: \[not run: /);

      // A command that asks for another agent is refused in the editor, by code, and nothing is sent.
      await prompt("/planner");
      assert.match(repliesOf(editor.updates).at(-1) ?? "", /asks for agent plan/);
      assert.equal(s.server.requests.length, 2);

      // /goal: set (nothing sent to the model), then the next turn goes on until the check passes.
      await prompt(`/goal ${FLAKY_ONCE}`);
      assert.match(repliesOf(editor.updates).at(-1) ?? "", /^goal set: each turn goes on until/);
      assert.equal(s.server.requests.length, 2);
      assert.equal((await prompt("fix the test")).stopReason, "end_turn");
      assert.equal(s.server.requests.length, 4, "sent back to work once");
      assert.match(sentText(s, 4), /FAIL: not yet/);
      await prompt("/goal off");
      assert.match(repliesOf(editor.updates).at(-1) ?? "", /^goal cleared/);
      await prompt("and now");
      assert.equal(s.server.requests.length, 5, "no goal: one request");

      // /init is its prompt's turn; /model lives in the terminal.
      await prompt("/init");
      assert.match(sentText(s, 6), /AGENTS\.md/);
      await prompt("/model other");
      assert.match(repliesOf(editor.updates).at(-1) ?? "", /\/model is not offered in the editor/);
      assert.equal(s.server.requests.length, 6);
      assert.equal(await editor.close(), 0, editor.stderr());

      const { decisions } = s.latest();
      const inputs = decisions.filter((d) => d.seat === "input.command");
      assert.deepEqual(
        inputs.map((d) => [d.holder, (d.answer as { name: string }).name]),
        [
          ["person", "hi"],
          ["person", "peek"],
          ["person", "planner"],
          ["person", "goal"],
          ["person", "goal"],
          ["person", "init"],
          ["person", "model"],
        ],
      );
      const refused = decisions.find(
        (d) =>
          d.seat === "agent.select" &&
          d.reasons.some((r) => r.rule === "a command does not switch the editor's session"),
      );
      assert.equal(refused?.holder, "code");
      assert.equal(refused?.answer, "build");
      const passed = expectDecision(decisions, "turn.goal", "person", "passed");
      assert.ok(passed.reasons.some((r) => r.detail === "/goal"));
      expectDecision(decisions, "turn.goal", "person", "continue");
    } finally {
      await editor.close();
      await s.close();
    }
  });
});
