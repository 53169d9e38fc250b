import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startScenario, waitFor } from "../support/scenario.js";
import { startServe } from "../support/serve.js";
import { startTmux } from "../support/tmux.js";

const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

describe("bosun attach: the TUI driving a session the server holds", () => {
  it("a message runs on the server; its ask is answered in the TUI's dialog and recorded as the person's through the server; the session outlives the terminal", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "make notes" },
          reply: { toolCalls: [{ id: "w1", name: "write", arguments: { path: "notes.txt", content: "remote\n" } }] },
          times: 1,
        },
        { reply: { text: "Wrote notes.txt on the server." } },
      ],
    });
    const serve = await startServe(s);
    // The token is this machine's server's own, read from the data folder: no flag needed.
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env), args: ["attach", serve.base] });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("make notes");
      const dialog = await term.waitFor(/o allow once/);
      assert.match(dialog, /write needs your approval/);
      assert.equal(existsSync(join(s.ws.dir, "notes.txt")), false, "nothing is written while the dialog is open");
      term.type("o", false);
      await term.waitFor(/Wrote notes\.txt on the server\./);
      assert.equal(readFileSync(join(s.ws.dir, "notes.txt"), "utf8"), "remote\n");
      // /why is the server's ledger, as bosun why prints it.
      term.type("/why call.approval");
      await term.waitFor(/call\.approval\s+person\s+allow-once/);
      term.keys("C-c");
      await waitFor(() => (term.exited() ? true : undefined));
      assert.match(term.screen(), /session \w+ stays on http:\/\/127\.0\.0\.1:\d+/);
      const approval = s.latest().decisions.find((d) => d.seat === "call.approval");
      assert.equal(approval?.holder, "person");
      assert.match(JSON.stringify(approval?.reasons), /answered through.*the server/);
    } finally {
      term.kill();
      await serve.stop();
      await s.close();
    }
  });

  it("a wrong token, an unknown session or an address with no server is a clear error, exit 2", async () => {
    const s = await startScenario({ rules: [] });
    const serve = await startServe(s);
    try {
      const wrong = await s.run(["attach", serve.base, "--token", "x".repeat(43)]);
      assert.equal(wrong.code, 2);
      assert.match(wrong.stderr, /refused the token/);
      const unknown = await s.run(["attach", serve.base, "--session", "01M8XZDZWEZX9XDZFQS5W9B4P4"]);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /no session "01M8XZDZWEZX9XDZFQS5W9B4P4"/);
      // This machine's token goes only to the origin its server recorded: another port gets none.
      const untold = await s.run(["attach", "http://127.0.0.1:9"]);
      assert.equal(untold.code, 2);
      assert.match(
        untold.stderr,
        /no token for http:\/\/127\.0\.0\.1:9 \(this machine's bosun serve listens on http:\/\/127\.0\.0\.1:\d+\)/,
      );
      const nowhere = await s.run(["attach", "http://127.0.0.1:9", "--token", "x".repeat(43)]);
      assert.equal(nowhere.code, 2);
      assert.match(nowhere.stderr, /cannot reach http:\/\/127\.0\.0\.1:9/);
      const bad = await s.run(["attach", "ftp://x"]);
      assert.equal(bad.code, 2);
      assert.doesNotMatch(wrong.stderr + unknown.stderr + nowhere.stderr + bad.stderr, /\n\s+at /);
    } finally {
      await serve.stop();
      await s.close();
    }
  });
});
