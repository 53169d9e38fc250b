import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startScenario } from "../support/scenario.js";
import { startTmux, type TmuxSession } from "../support/tmux.js";

/** As in tui.test.ts: `CI` set, as on a CI runner; Ink would draw nothing under it unless bosun keeps it away. */
const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

/** `/exit`, and waits (bounded) until bosun has gone. */
async function exit(term: TmuxSession) {
  term.type("/exit");
  const until = Date.now() + 10_000;
  while (!term.exited() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  assert.ok(term.exited(), term.screen());
}

describe("a resumed session shows its past (tmux)", () => {
  it("-c, /resume's picker, -s and a fork redraw the conversation so far, then the new one below a separator", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "other task" }, reply: { text: "Other done." } },
        {
          match: { lastMessage: "first task" },
          reply: { toolCalls: [{ id: "s1", name: "shell", arguments: { command: "echo first-output" } }] },
        },
        { match: { lastMessage: "tool_result s1" }, reply: { text: "First done." } },
        {
          match: { lastMessage: "second task" },
          reply: { text: "Reading.", toolCalls: [{ id: "r1", name: "read", arguments: { path: "notes.txt" } }] },
        },
        { match: { lastMessage: "tool_result r1" }, reply: { text: "Second done." } },
        {
          match: { lastMessage: "third task" },
          reply: {
            toolCalls: [
              { id: "e1", name: "edit", arguments: { path: "notes.txt", old_string: "alpha", new_string: "beta" } },
            ],
          },
        },
        { match: { lastMessage: "tool_result e1" }, reply: { text: "Third done." } },
        { match: { lastMessage: "fourth task" }, reply: { text: "Fourth done." } },
        {
          match: { lastMessage: "fifth in the fork" },
          reply: {
            toolCalls: [
              {
                id: "e2",
                name: "edit",
                arguments: { path: "notes.txt", old_string: "beta", new_string: "gamma\ndelta\nepsilon\nzeta" },
              },
            ],
          },
        },
        { match: { lastMessage: "tool_result e2" }, reply: { text: "Fifth done." } },
      ],
    });
    s.ws.write("notes.txt", "alpha\nsecond line\n");
    const terms: TmuxSession[] = [];
    const open = (args: string[]) => {
      const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env), args });
      terms.push(term);
      return term;
    };
    try {
      // Two sessions made by `bosun run`: the other first, then four turns with calls in the latest.
      assert.equal((await s.run(["run", "other task"])).code, 0);
      const other = s.latest().id;
      for (const args of [
        ["run", "--allow", "shell:echo *", "first task"],
        ["run", "-c", "second task"],
        ["run", "-c", "--auto", "third task"],
        ["run", "-c", "fourth task"],
      ]) {
        const result = await s.run(args);
        assert.equal(result.code, 0, result.stderr);
      }
      const main = s.latest().id;
      assert.notEqual(main, other);

      // -c: the latest session's past — the oldest of its four turns folded, the last three in full.
      const resumed = open(["-c"]);
      const past = await resumed.waitFor(new RegExp(`── resumed session ${main.slice(0, 10)} · [^\\n]*──`));
      assert.match(
        past,
        /› first task · 1 call → First done\.\n\n› second task\nReading\.\n✓ read notes\.txt → 2 lines\nSecond done\.\n\n› third task\n✓ edit notes\.txt → \+1 -1\nThird done\.\n\n› fourth task\nFourth done\.\n\n── resumed session/,
      );
      assert.doesNotMatch(past, /› other task/, "only this session's past");
      await resumed.waitFor(/scripted\/test-model · build · approve/);
      resumed.type("!echo bang");
      await resumed.waitFor(/! echo bang \(exit 0\)/);
      // /resume's picker: the other session (second, newest first), whose past follows what is shown.
      resumed.type("/resume");
      await resumed.waitFor(/Resume a session[\s\S]*\(open now\)/);
      resumed.keys("Down");
      resumed.keys("Enter");
      const switched = await resumed.waitFor(new RegExp(`── resumed session ${other.slice(0, 10)} · [^\\n]*──`));
      assert.match(
        switched,
        new RegExp(
          `! echo bang \\(exit 0\\)\\nbang\\n[\\s\\S]*› other task\\nOther done\\.\\n\\n── resumed session ${other.slice(0, 10)}[^\\n]*\\nsession ${other.slice(0, 10)} · scripted/test-model`,
        ),
      );
      await exit(resumed);

      // A fork (-s … --fork) shows the past it copied, the person's !cmd included, and goes on below it;
      // in auto mode an edit runs without asking, so its line shows the start of its diff.
      const forked = open(["-s", main, "--fork", "--mode", "auto"]);
      const copied = await forked.waitFor(new RegExp(`── forked session \\w{10} from ${main.slice(0, 10)}[^\\n]*──`));
      assert.match(copied, /› fourth task\nFourth done\.\n! echo bang \(exit 0\)\nbang\n\n── forked session/);
      assert.match(
        copied,
        /› first task · 1 call → First done\.\n\n› second task\n/,
        "a !cmd between turns is no turn of its own",
      );
      await forked.waitFor(/scripted\/test-model · build · auto/);
      forked.type("fifth in the fork");
      await forked.waitFor(
        /── forked session[^\n]*──\n\n› fifth in the fork\n✓ edit notes\.txt → \+4 -1\n {2}@@ -1,2 \+1,5 @@\n {2}-beta\n {2}\+gamma\n {2}\+delta\n {2}\+epsilon\n {2}\+zeta\n {2}… 1 more line — Ctrl-O\nFifth done\./,
      );
      await exit(forked);

      // -s <id>: that session's past.
      const named = open(["-s", other]);
      await named.waitFor(new RegExp(`› other task\\nOther done\\.\\n\\n── resumed session ${other.slice(0, 10)}`));
      await exit(named);
    } finally {
      for (const term of terms) term.kill();
      await s.close();
    }
  });
});
