import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { startTmux, type TmuxSession } from "../support/tmux.js";

/**
 * An MCP server's prompts as slash commands in the interactive session, in a real terminal
 * (tmux), against the real server-everything: `/mcp:everything:args-prompt Paris` sends the
 * server's message to the model; a missing required argument is said, and nothing is sent.
 */

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const SHIFTY = fileURLToPath(new URL("../support/mcp-shifty-server.mjs", import.meta.url));
const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

async function exit(term: TmuxSession) {
  term.type("/exit");
  const until = Date.now() + 10_000;
  while (!term.exited() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  assert.ok(term.exited(), term.screen());
}

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  assert.ok(check(), "it never happened");
}

describe("MCP prompts as slash commands (tmux)", () => {
  it("/mcp:<server>:<prompt> args sends the server's message; without its required argument, it says so", async () => {
    const s = await startScenario(
      {
        rules: [
          { match: { lastMessage: "What's weather in Paris, Texas?" }, reply: { text: "Sunny in Paris." } },
          { reply: { text: "unexpected" } },
        ],
      },
      { global: { mcp: { everything: { command: process.execPath, args: [EVERYTHING] } } } },
    );
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("/mcp:everything:args-prompt");
      await term.waitFor(/\/mcp:everything:args-prompt needs city \(city \(required\), state\)/);
      assert.equal(s.server.requests.length, 0, "nothing went to the model");
      term.type("/mcp:everything:args-prompt Paris state=Texas");
      await term.waitFor(/Sunny in Paris\./);
      assert.equal(s.server.requests.length, 1);
      const decided = s.latest().decisions.filter((d) => d.seat === "input.command" && d.holder === "person");
      const used = decided.find((d) => JSON.stringify(d.answer).includes("mcp:everything:args-prompt"));
      assert.ok(used, JSON.stringify(decided));
      assert.match(JSON.stringify(used.reasons), /MCP server everything/);
      expectDecision(s.latest().decisions, "mcp.connect", "code");
      await exit(term);
    } finally {
      term.kill();
      await s.close();
    }
  });

  it("prompts follow prompts/list_changed and a reconnect; the server's new instructions reach the system prompt, recorded", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "add a prompt" },
          reply: { toolCalls: [{ id: "add", name: "mcp__shifty__add_prompt", arguments: { name: "farewell" } }] },
        },
        { match: { lastMessage: "added farewell" }, reply: { text: "Added it." } },
        { match: { lastMessage: "prompt farewell from shifty" }, reply: { text: "Said farewell." } },
        { match: { lastMessage: "prompt again from shifty" }, reply: { text: "Said again." } },
        { reply: { text: "unexpected" } },
      ],
    });
    const folder = join(s.ws.home, "shifty");
    mkdirSync(folder);
    writeFileSync(join(folder, "instructions.txt"), "Say SHIFTY-ONE.");
    writeFileSync(join(folder, "prompts.txt"), "greet\n");
    s.setUserConfig({ mcp: { shifty: { command: process.execPath, args: [SHIFTY, folder] } } });
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("add a prompt");
      await term.waitFor(/Added it\./);
      // Listed again on the server's word (after the SDK's debounce): the new prompt is a command now.
      await until(() => s.latest().decisions.some((d) => d.answer === "relisted · 2 prompts"));
      term.type("/mcp:shifty:farewell");
      await term.waitFor(/Said farewell\./);
      expectDecision(s.latest().decisions, "mcp.connect", "code", "relisted · 2 prompts");

      // Started again with other instructions and prompts: both follow.
      writeFileSync(join(folder, "instructions.txt"), "Say SHIFTY-TWO.");
      writeFileSync(join(folder, "prompts.txt"), "greet\nagain\n");
      term.type("/mcp reconnect shifty");
      await term.waitFor(/started shifty again: connected · 1 tool/);
      // The prompt added to the old process is gone with it: no longer a command.
      term.type("/mcp:shifty:farewell");
      await term.waitFor(/\/mcp:shifty:farewell is not a command/);
      await term.waitFor(/unexpected/);
      term.type("/mcp:shifty:again");
      await term.waitFor(/Said again\./);
      const systems = s.server.requests.map((r) => r.normalized?.system ?? "");
      assert.match(systems[0] ?? "", /Instructions from MCP server shifty:\nSay SHIFTY-ONE\./);
      const last = systems.at(-1) ?? "";
      assert.match(last, /Instructions from MCP server shifty:\nSay SHIFTY-TWO\./);
      assert.doesNotMatch(last, /SHIFTY-ONE/);
      const { decisions } = s.latest();
      const changed = decisions.find(
        (d) => d.seat === "context.instructions" && d.reasons.some((r) => r.rule === "server instructions changed"),
      );
      assert.ok(changed, "the change of what the model is told is on record");
      assert.deepEqual(changed.answer, ["MCP server shifty"]);
      assert.equal(changed.subject?.server, "shifty");
      const reconnected = expectDecision(decisions, "mcp.connect", "person", "connected · 1 tool");
      assert.ok(reconnected.reasons.some((r) => r.rule === "prompts" && r.detail === "2 prompts"));
      await exit(term);
    } finally {
      term.kill();
      await s.close();
    }
  });
});
