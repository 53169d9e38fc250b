import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { sentText, startScenario, waitFor } from "../support/scenario.js";
import { startTmux, type TmuxSession } from "../support/tmux.js";

/**
 * /undo, /redo and /rewind in the interactive session, in a real terminal (tmux): files put back
 * and forward, /rewind's picker of the person's messages, a file changed by hand shown and asked
 * about, and the undone turn left out of what the model is sent next.
 */

const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

async function exit(term: TmuxSession) {
  term.type("/exit");
  const until = Date.now() + 10_000;
  while (!term.exited() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  assert.ok(term.exited(), term.screen());
}

describe("undo in the interactive session (tmux)", () => {
  it("/rewind picks a message, /redo brings the turns back, a hand edit is asked about, /undo leaves the turn out", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { lastMessage: "first task" },
            reply: { toolCalls: [{ id: "w1", name: "write", arguments: { path: "new.txt", content: "new\n" } }] },
          },
          {
            match: { lastMessage: "second task" },
            reply: { toolCalls: [{ id: "s1", name: "shell", arguments: { command: "printf 'two\\n' > a.txt" } }] },
          },
          { match: { lastMessage: "third task" }, reply: { text: "Third done." } },
          {
            match: { lastMessage: "fourth task" },
            reply: {
              toolCalls: [
                {
                  id: "n1",
                  name: "shell",
                  // Waits until the test says so, however slow the machine: /undo is typed while it runs.
                  arguments: { command: "for i in $(seq 600); do [ -f wake ] && exit 0; sleep 0.1; done" },
                },
              ],
            },
          },
          { match: { lastMessage: "/n1/" }, reply: { text: "Fourth done." } },
          { match: { lastMessage: "/w1/" }, reply: { text: "First done." } },
          { match: { lastMessage: "/s1/" }, reply: { text: "Second done." } },
          { reply: { text: "unexpected" } },
        ],
      },
      // The person's own rules: nobody is asked about the turns' writes.
      { global: { permission: { edit: "allow", shell: "allow" } } },
    );
    const file = (path: string) =>
      existsSync(join(s.ws.dir, path)) ? readFileSync(join(s.ws.dir, path), "utf8") : undefined;
    s.ws.write("a.txt", "one\n");
    // The reply shows before its turn has ended (its last snapshot, its end on record): /undo meanwhile is refused.
    const ended = (n: number) =>
      waitFor(() => (s.latest().events.filter((e) => e.type === "turn.ended").length >= n ? true : undefined));
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build/);
      term.type("first task");
      await term.waitFor(/First done\./);
      await ended(1);
      term.type("second task");
      await term.waitFor(/Second done\./);
      await ended(2);
      assert.equal(file("a.txt"), "two\n");

      term.type("/rewind");
      await term.waitFor(/Rewind to before which message[\s\S]*second task[\s\S]*first task/);
      term.keys("Down");
      term.keys("Enter");
      await term.waitFor(/undid turns 1, 2; 2 file\(s\) put back/);
      assert.equal(file("a.txt"), "one\n");
      assert.equal(file("new.txt"), undefined);

      term.type("/redo");
      await term.waitFor(/redid turns 1, 2; 2 file\(s\) put back/);
      assert.equal(file("a.txt"), "two\n");
      assert.equal(file("new.txt"), "new\n");

      writeFileSync(join(s.ws.dir, "a.txt"), "by hand\n");
      term.type("/undo");
      await term.waitFor(/Changed since bosun's last snapshot: a\.txt\. Overwrite them/);
      term.keys("Enter");
      await term.waitFor(/\/undo: not done: changed since the snapshot/);
      assert.equal(file("a.txt"), "by hand\n");
      term.type("/undo");
      await term.waitFor(/Changed since bosun's last snapshot: a\.txt\. Overwrite them/);
      term.keys("Down");
      term.keys("Enter");
      await term.waitFor(/undid turn 2; 1 file\(s\) put back/);
      assert.equal(file("a.txt"), "one\n");
      assert.equal(file("new.txt"), "new\n", "turn 1's file stays");

      term.type("third task");
      await term.waitFor(/Third done\./);
      const sent = sentText(s, s.server.requests.length);
      assert.match(sent, /first task/);
      assert.doesNotMatch(sent, /second task/);

      term.type("fourth task");
      await waitFor(() =>
        s.latest().events.some((e) => e.type === "call.started" && (e.data as { id: string }).id === "n1")
          ? true
          : undefined,
      );
      term.type("/undo");
      await term.waitFor(/\/undo: not done: a turn is running/);
      s.ws.write("wake", "");
      await term.waitFor(/Fourth done\./);
      const decisions = s.latest().decisions;
      const running = decisions.filter(
        (d) => d.seat === "session.revert" && JSON.stringify(d.reasons).includes("a turn is running"),
      );
      assert.equal(running.length, 1, "the refusal is recorded");
      expectDecision(decisions, "session.revert", "person", "restore");
      expectDecision(decisions, "session.revert", "person", "refuse");
      await exit(term);
    } finally {
      term.kill();
      await s.close();
    }
  });
});
