import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SessionStore } from "../../src/store/session-store.js";
import { type Scenario, startScenario } from "../support/scenario.js";
import { startTmux, type TmuxSession } from "../support/tmux.js";

/**
 * Delegates in the interactive session, in a real terminal (tmux), the real binary against the
 * scripted model server: each running delegate has its line under its task call; its asks come
 * to the person in the parent's dialog, labelled with the delegate; Esc cancels it with the turn.
 */

/** As in tui.test.ts: `CI` set, as on a CI runner; Ink would draw nothing under it unless bosun keeps it away. */
const terminalEnv = (env: NodeJS.ProcessEnv) => ({ ...env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

/** How each delegate's turns ended, from its own session's events. */
function childEnds(s: Scenario): string[] {
  const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
  try {
    return store
      .list()
      .filter((session) => session.parentId !== null)
      .flatMap((session) =>
        store
          .events(session.id)
          .filter((e) => e.type === "turn.ended")
          .map((e) => String((e.data as { status?: string }).status)),
      );
  } finally {
    store.close();
  }
}

async function exit(term: TmuxSession) {
  term.type("/exit");
  const until = Date.now() + 10_000;
  while (!term.exited() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  assert.ok(term.exited(), term.screen());
}

describe("delegates in the interactive session (tmux)", { concurrency: true }, () => {
  it("a delegate's ask opens the parent's dialog labelled with the delegate and its task; allowed once, it runs", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "make a file" },
          reply: {
            toolCalls: [
              {
                id: "t1",
                name: "task",
                arguments: { agent: "build", prompt: "TOUCH: create x.txt", description: "create x.txt" },
              },
            ],
          },
        },
        { match: { lastMessage: "tool_result t1" }, reply: { text: "The builder made x.txt." } },
        {
          match: { lastMessage: "TOUCH:" },
          reply: { toolCalls: [{ id: "x1", name: "shell", arguments: { command: "touch x.txt" } }] },
        },
        { match: { lastMessage: "tool_result x1" }, reply: { text: "BUILT: x.txt is there" } },
      ],
    });
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("make a file");
      const dialog = await term.waitFor(/o allow once/);
      assert.match(dialog, /build delegate · shell needs your approval/);
      assert.match(dialog, /asked by the build delegate on "create x\.txt" \(session /);
      assert.match(dialog, /\? asks\s+shell:touch x\.txt/);
      // Behind the dialog, the task's line says the delegate runs and what it is on.
      assert.match(dialog, /… task build\n\s+↳ build · create x\.txt · running · 1 call · shell touch x\.txt/);
      assert.equal(existsSync(join(s.ws.dir, "x.txt")), false, "nothing runs while the dialog is open");
      term.type("o", false);
      const done = await term.waitFor(/The builder made x\.txt\./);
      assert.ok(existsSync(join(s.ws.dir, "x.txt")));
      assert.match(done, /✓ task build → done in 2 step\(s\)\n\s+↳ build · create x\.txt · done · 1 call\n/);
      // Ctrl-O opens the finished task again with its delegate's calls.
      term.keys("C-o");
      await term.waitFor(
        /opened \(Ctrl-O closes\):\s*\n✓ task build[^\n]*\n\s+↳ build[^\n]*done[^\n]*\n\s+✓ shell touch x\.txt/,
      );
      await exit(term);
    } finally {
      term.kill();
      await s.close();
    }
  });

  it("Esc (or Ctrl-C) while a delegate waits on a slow model cancels the delegate with the turn; its line says cancelled", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "slow delegate" },
          reply: {
            toolCalls: [
              {
                id: "t2",
                name: "task",
                arguments: { agent: "plan", prompt: "SLOW: think", description: "think long" },
              },
            ],
          },
        },
        { match: { lastMessage: "SLOW:" }, reply: { delayMs: 30_000, text: "too late" } },
        { match: { lastMessage: "after it" }, reply: { text: "Still here." } },
      ],
    });
    const term = startTmux({ cwd: s.ws.dir, env: terminalEnv(s.ws.env) });
    try {
      await term.waitFor(/scripted\/test-model · build · approve/);
      term.type("slow delegate");
      await term.waitFor(/↳ plan · think long · running · 0 calls/);
      const started = Date.now();
      term.keys("Escape");
      const screen = await term.waitFor(/interrupted; the session stays as it was/);
      assert.ok(Date.now() - started < 10_000, "the delegate stopped at once, not when its reply came");
      assert.match(screen, /✗ task plan → cancelled\n\s+↳ plan · think long · cancelled · 0 calls/);
      assert.deepEqual(childEnds(s), ["cancelled"], "the delegate's own turn ended cancelled");
      term.type("after it");
      await term.waitFor(/Still here\./);
      // Ctrl-C interrupts the same way (a second within a second would quit).
      term.type("slow delegate");
      await term.waitFor(/↳ plan · think long · running · 0 calls/);
      term.keys("C-c");
      await term.waitFor(/interrupted; press Ctrl-C again within a second to quit/);
      // Its line says so once the delegate has stopped: the warning comes at the key, before that.
      await term.waitFor(/(↳ plan · think long · cancelled · 0 calls[\s\S]*){2}/);
      assert.deepEqual(childEnds(s), ["cancelled", "cancelled"]);
      await exit(term);
    } finally {
      term.kill();
      await s.close();
    }
  });
});
