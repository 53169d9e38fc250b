import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Hook } from "./hooks.js";
import { judgeNotifyHook } from "./notify-hook.js";

const hook: Hook = {
  event: "notification",
  command: "notify-send bosun",
  timeoutMs: 5000,
  onError: "deny",
  onErrorWritten: false,
  fromProject: false,
  source: "/p/bosun.json",
  key: "hooks.notification[0]",
};

describe("notification hooks (person.notify)", () => {
  it("exit 0 is notified, whatever it prints; anything else failed, and the ask goes on", () => {
    const ok = judgeNotifyHook(hook, { kind: "exited", code: 0, stdout: '{"decision":"block"}', stderr: "" });
    assert.deepEqual([ok.holder, ok.answer], ["hook", "notified"]);
    const bad = judgeNotifyHook(hook, { kind: "exited", code: 2, stdout: "", stderr: "no display" });
    assert.deepEqual([bad.holder, bad.answer], ["code", "failed"]);
    assert.match(bad.reasons[0]?.detail ?? "", /exit code 2: no display; the ask goes on/);
    assert.equal(judgeNotifyHook(hook, { kind: "failed", why: "timed out after 5000 ms" }).answer, "failed");
  });
});
