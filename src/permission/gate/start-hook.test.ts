import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Hook, HookRun } from "./hooks.js";
import { judgeStartHook } from "./start-hook.js";

const hook: Hook = {
  event: "session_start",
  command: "./ctx.sh",
  timeoutMs: 5000,
  onError: "deny",
  onErrorWritten: false,
  fromProject: false,
  source: "/p/bosun.json",
  key: "hooks.session_start[0]",
};
const exited = (code: number, stdout = "", stderr = ""): HookRun => ({ kind: "exited", code, stdout, stderr });

describe("session_start hooks (session.start_hook)", () => {
  it("adds stdout, {context} or additionalContext; nothing when silent", () => {
    assert.equal(judgeStartHook(hook, exited(0)).answer, "nothing");
    assert.equal(judgeStartHook(hook, exited(0, "open issues: 3")).context, "open issues: 3");
    assert.equal(judgeStartHook(hook, exited(0, '{"context":"c"}')).context, "c");
    const claude = judgeStartHook(
      hook,
      exited(0, '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"sprint 9"}}'),
    );
    assert.deepEqual([claude.holder, claude.answer, claude.context], ["hook", "context", "sprint 9"]);
  });

  it("cannot block: a block, a crash or a timeout adds nothing and is failed (code)", () => {
    for (const run of [
      exited(0, '{"decision":"block"}'),
      exited(2, "", "no"),
      { kind: "failed", why: "timed out after 5000 ms" } as HookRun,
    ]) {
      const v = judgeStartHook(hook, run);
      assert.deepEqual([v.holder, v.answer, v.context], ["code", "failed", undefined], JSON.stringify(run));
    }
  });
});
