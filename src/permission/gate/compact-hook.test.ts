import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { judgeCompactHook } from "./compact-hook.js";
import type { Hook, HookRun } from "./hooks.js";

const hook: Hook = {
  event: "pre_compact",
  command: "./pre.sh",
  timeoutMs: 5000,
  onError: "deny",
  onErrorWritten: false,
  fromProject: false,
  source: "/p/bosun.json",
  key: "hooks.pre_compact[0]",
};
const exited = (code: number, stdout = ""): HookRun => ({ kind: "exited", code, stdout, stderr: "" });

describe("pre_compact hooks (compaction.hook)", () => {
  it("stdout or {context} adds summary instructions; silence adds nothing", () => {
    assert.equal(judgeCompactHook(hook, exited(0, "Keep paths.")).instructions, "Keep paths.");
    assert.equal(judgeCompactHook(hook, exited(0, '{"context":"Keep ids."}')).instructions, "Keep ids.");
    assert.equal(judgeCompactHook(hook, exited(0)).answer, "nothing");
  });

  it("cannot stop the compaction: a block, exit 2 or a timeout adds nothing, failed (code)", () => {
    for (const run of [exited(0, '{"decision":"block"}'), exited(2), { kind: "failed", why: "timed out" } as HookRun]) {
      const v = judgeCompactHook(hook, run);
      assert.deepEqual([v.holder, v.answer, v.instructions], ["code", "failed", undefined], JSON.stringify(run));
    }
  });
});
