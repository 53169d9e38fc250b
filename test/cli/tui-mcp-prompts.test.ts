import assert from "node:assert/strict";
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
const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

async function exit(term: TmuxSession) {
  term.type("/exit");
  const until = Date.now() + 10_000;
  while (!term.exited() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  assert.ok(term.exited(), term.screen());
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
});
