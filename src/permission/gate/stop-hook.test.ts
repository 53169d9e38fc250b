import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Hook, HookRun } from "./hooks.js";
import { decideStopHooks, judgeStopHook, type StopHookVerdict } from "./stop-hook.js";

const hook: Hook = {
  event: "stop",
  command: "./check.sh",
  timeoutMs: 5000,
  onError: "deny",
  onErrorWritten: false,
  fromProject: false,
  source: "/p/bosun.json",
  key: "hooks.stop[0]",
};
const exited = (code: number, stdout = "", stderr = ""): HookRun => ({ kind: "exited", code, stdout, stderr });
const limit = { value: 3, source: "built-in", written: false };

describe("stop hooks (turn.stop_hook)", () => {
  it("exit 0 with nothing or text lets the turn end", () => {
    assert.equal(judgeStopHook(hook, exited(0)).answer, "done");
    assert.equal(judgeStopHook(hook, exited(0, "all good")).answer, "done");
  });

  it("exit 2 sends the agent back with stderr as the reason (Claude Code's convention)", () => {
    const v = judgeStopHook(hook, exited(2, "", "tests fail: 2\n"));
    assert.equal(v.holder, "hook");
    assert.equal(v.answer, "block");
    assert.equal(v.reason, "tests fail: 2");
  });

  it('{"decision":"block","reason"} sends it back; continue:false wins and lets it end', () => {
    const blocked = judgeStopHook(hook, exited(0, '{"decision":"block","reason":"run the tests"}'));
    assert.equal(blocked.answer, "block");
    assert.equal(blocked.reason, "run the tests");
    const stopped = judgeStopHook(
      hook,
      exited(0, '{"decision":"block","reason":"x","continue":false,"stopReason":"enough"}'),
    );
    assert.equal(stopped.answer, "done");
    assert.equal(stopped.reasons[0]?.detail, "enough");
  });

  it("a crash, a timeout, another exit code or unknown JSON fails — never done", () => {
    for (const run of [
      { kind: "failed", why: "timed out after 5000 ms" } as HookRun,
      exited(1, "", "boom"),
      exited(0, '{"decision":"approve"}'),
      exited(0, '{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"x"}}'),
      exited(0, '{"hookSpecificOutput":{"hookEventName":"PreToolUse"}}'),
    ]) {
      const v = judgeStopHook(hook, run);
      assert.equal(v.answer, "failed", JSON.stringify(run));
      assert.equal(v.holder, "code");
      assert.match(v.failure ?? "", /a stop hook \(hooks\.stop\[0\]\) failed/);
    }
  });

  it("combines: a failure fails the turn, a block continues until the limit, then a limit", () => {
    const done: StopHookVerdict = { holder: "hook", answer: "done", reasons: [], hook: "a", event: "stop" };
    const block: StopHookVerdict = {
      holder: "hook",
      answer: "block",
      reasons: [],
      reason: "more",
      hook: "b",
      event: "stop",
    };
    const failed: StopHookVerdict = {
      holder: "code",
      answer: "failed",
      reasons: [],
      failure: "broke",
      hook: "c",
      event: "stop",
    };
    assert.deepEqual(decideStopHooks([], 0, limit), { kind: "done" });
    assert.deepEqual(decideStopHooks([done], 0, limit), { kind: "done" });
    assert.deepEqual(decideStopHooks([done, block], 2, limit), { kind: "continue", reason: "more" });
    assert.deepEqual(decideStopHooks([block, failed], 0, limit), { kind: "failed", message: "broke" });
    const over = decideStopHooks([block], 3, limit);
    assert.equal(over.kind, "limit");
    if (over.kind === "limit") {
      assert.equal(over.decision.holder, "code");
      assert.equal(over.decision.answer, "stop");
    }
    const written = decideStopHooks([block], 1, { value: 1, source: "/p/bosun.json", written: true });
    assert.equal(written.kind === "limit" && written.decision.holder, "config");
  });
});
