import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { startTmux, type TmuxSession } from "../support/tmux.js";

/**
 * /mcp in the interactive session, in a real terminal (tmux): how each server stands (a real
 * server-everything connected with its tools and hints, one that failed with its stderr, one
 * disabled), a long call's progress live on its line, a reconnect refused while the turn runs,
 * and one that succeeds once the server can start — its tool offered to the next turn.
 */

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const FLAKY = fileURLToPath(new URL("../support/mcp-flaky-server.mjs", import.meta.url));
const LONG = "mcp__everything__trigger-long-running-operation";
const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

async function exit(term: TmuxSession) {
  term.type("/exit");
  const until = Date.now() + 10_000;
  while (!term.exited() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  assert.ok(term.exited(), term.screen());
}

describe("/mcp (tmux)", () => {
  it("shows each server; a call's progress is live; reconnect is refused mid-turn, then starts the fixed server", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "wait please" },
          reply: { toolCalls: [{ id: "long", name: LONG, arguments: { duration: 6, steps: 4 } }] },
        },
        { match: { lastMessage: "Long running operation completed" }, reply: { text: "Waited it out." } },
        {
          match: { lastMessage: "say hello" },
          reply: { toolCalls: [{ id: "hi", name: "mcp__flaky__hello", arguments: {} }] },
        },
        { match: { lastMessage: "hello from flaky" }, reply: { text: "Greeted." } },
        { reply: { text: "unexpected" } },
      ],
    });
    const flag = join(s.ws.home, "flaky-ready");
    s.setUserConfig({
      mcp: {
        everything: { command: process.execPath, args: [EVERYTHING] },
        flaky: { command: process.execPath, args: [FLAKY, flag] },
        off: { command: process.execPath, args: [FLAKY, flag], enabled: false },
      },
    });
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("/mcp");
      await term.waitFor(/off {2}disabled: mcp\.off\.enabled is false/);
      const shown = term.screen();
      assert.match(shown, /everything {2}connected · \d+ tools \(stdio /);
      assert.match(shown, /trigger-long-running-operation {2}read-only · idempotent/);
      assert.match(shown, /flaky {2}failed \(stdio [^)]*\): /);
      assert.match(shown, /flaky: not ready: no flag file at/);

      term.type("wait please");
      await term.waitFor(new RegExp(`${LONG}.* · [1-3]/4`));
      term.type("/mcp reconnect flaky");
      await term.waitFor(/\/mcp reconnect flaky: not while a turn runs/);
      await term.waitFor(/Waited it out\./, 20_000);
      // Refused, and on record all the same: the person asked, nothing was started.
      const refused = expectDecision(s.latest().decisions, "mcp.connect", "code", "refused");
      assert.equal(refused.subject?.server, "flaky");
      assert.deepEqual(
        refused.reasons.filter((r) => r.decisive).map((r) => r.rule),
        ["turn running"],
      );

      writeFileSync(flag, "ready");
      term.type("/mcp reconnect flaky");
      await term.waitFor(/started flaky again: connected · 1 tool, offered from the next step/);
      term.type("say hello");
      await term.waitFor(/Greeted\./);
      const hello = s.server.requests.findIndex((r) => r.normalized?.tools.includes("mcp__flaky__hello"));
      assert.ok(hello >= 0, "the reconnected server's tool was offered");
      const { decisions } = s.latest();
      expectDecision(decisions, "mcp.connect", "person", "connected · 1 tool");
      const failed = decisions.find((d) => d.seat === "mcp.connect" && d.subject?.server === "flaky");
      assert.equal(failed?.answer, "failed");
      await exit(term);
    } finally {
      term.kill();
      await s.close();
    }
  });

  it("lists a repository's servers left out until trusted, with how to let each run; a reconnect of one is refused, recorded", async () => {
    const s = await startScenario(
      { rules: [{ reply: { text: "unexpected" } }] },
      {
        config: {
          mcp: {
            // Judged (seat project.command) and denied by the person.
            theirs: { command: process.execPath, args: ["theirs.mjs"] },
            // Reads your environment: left out whole while the repository's config is not trusted.
            refs: { command: process.execPath, args: ["refs.mjs", "{env:HOME}"] },
          },
        },
      },
    );
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/n no — ask as my own config says/);
      term.type("n", false);
      await term.waitFor(/d deny/);
      term.type("d", false);
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("/mcp");
      await term.waitFor(/refs {2}needs trust: /);
      const shown = term.screen().replace(/│/g, " ");
      assert.match(shown, /theirs {2}needs trust: [^\n]*\(seat project\.command\)/);
      assert.match(shown, /refs {2}needs trust: its args reads \{env:HOME\}, and the repository's config is not/);
      assert.match(shown, /to let it run: \/new asks again, or start bosun with --trust-project/);
      term.type("/mcp reconnect theirs");
      await term.waitFor(/\/mcp reconnect: MCP server theirs was not approved to run/);
      const refused = expectDecision(s.latest().decisions, "mcp.connect", "code", "refused");
      assert.equal(refused.subject?.server, "theirs");
      await exit(term);
    } finally {
      term.kill();
      await s.close();
    }
  });
});
