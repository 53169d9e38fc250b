import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Hook, HookRun } from "./hooks.js";
import { HOOK_CONTEXT_LIMIT, judgePromptHook } from "./prompt-hook.js";

const hook: Hook = {
  event: "user_prompt_submit",
  command: "./guard.sh",
  timeoutMs: 5000,
  onError: "deny",
  onErrorWritten: false,
  fromProject: false,
  source: "/p/bosun.json",
  key: "hooks.user_prompt_submit[0]",
};
const exited = (code: number, stdout = "", stderr = ""): HookRun => ({ kind: "exited", code, stdout, stderr });

describe("prompt hooks (turn.prompt_hook)", () => {
  it("passes with nothing; stdout text, bosun's context and Claude Code's additionalContext are context", () => {
    assert.equal(judgePromptHook(hook, exited(0)).answer, "pass");
    assert.equal(judgePromptHook(hook, exited(0, "branch: main\n")).context, "branch: main");
    assert.equal(judgePromptHook(hook, exited(0, '{"context":"ticket 42"}')).context, "ticket 42");
    const claude = judgePromptHook(
      hook,
      exited(0, '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"today is Friday"}}'),
    );
    assert.equal(claude.answer, "context");
    assert.equal(claude.context, "today is Friday");
  });

  it("blocks on exit 2 (stderr), decision block (reason) and continue: false (stopReason)", () => {
    const two = judgePromptHook(hook, exited(2, "", "contains a secret"));
    assert.deepEqual([two.holder, two.answer, two.reason], ["hook", "block", "contains a secret"]);
    assert.equal(judgePromptHook(hook, exited(0, '{"decision":"block","reason":"no"}')).reason, "no");
    assert.equal(judgePromptHook(hook, exited(0, '{"continue":false,"stopReason":"closed"}')).reason, "closed");
  });

  it("a broken hook blocks (code) unless on_error allow (config)", () => {
    const broken = judgePromptHook(hook, { kind: "failed", why: "timed out after 5000 ms" });
    assert.deepEqual([broken.holder, broken.answer], ["code", "block"]);
    assert.match(broken.reason ?? "", /failed: timed out/);
    assert.equal(judgePromptHook(hook, exited(0, '{"decision":"approve"}')).answer, "block");
    const allowed = judgePromptHook({ ...hook, onError: "allow", onErrorWritten: true }, exited(1));
    assert.deepEqual([allowed.holder, allowed.answer], ["config", "pass"]);
  });

  it("bounds the context it adds, and says so", () => {
    const big = judgePromptHook(hook, exited(0, "x".repeat(HOOK_CONTEXT_LIMIT + 50)));
    assert.ok((big.context?.length ?? 0) < HOOK_CONTEXT_LIMIT + 100);
    assert.match(big.context ?? "", /\[cut: /);
    assert.ok(big.reasons.some((r) => r.rule === "context cut"));
  });
});
