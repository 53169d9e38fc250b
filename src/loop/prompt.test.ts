import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Decision } from "../contracts/decisions.js";
import type { PromptHookVerdict } from "../permission/gate/prompt-hook.js";
import { admitPrompt, admitSteering } from "./prompt.js";

const verdict = (answer: PromptHookVerdict["answer"], extra: Partial<PromptHookVerdict> = {}): PromptHookVerdict => ({
  holder: "hook",
  answer,
  reasons: [],
  hook: "hooks.user_prompt_submit[0]",
  ...extra,
});

function recorder() {
  const decisions: Decision[] = [];
  const users: string[] = [];
  const notices: string[] = [];
  return {
    decisions,
    users,
    notices,
    decision: (d: Decision) => {
      decisions.push(d);
    },
    user: (m: { text: string }) => {
      users.push(m.text);
    },
    notice: (n: { text: string }) => {
      notices.push(n.text);
    },
  };
}

describe("admitting the person's message (turn.prompt_hook)", () => {
  it("records every hook's answer; the first block holds; context is labelled by hook", async () => {
    const r = recorder();
    const hooks = async () => [
      verdict("context", { context: "ctx" }),
      verdict("block", { reason: "no", hook: "hooks.user_prompt_submit[1]" }),
      verdict("block", { reason: "later", hook: "hooks.user_prompt_submit[2]" }),
    ];
    const admitted = await admitPrompt({ text: "hi" }, hooks, r);
    assert.deepEqual(admitted, { blocked: "no", hook: "hooks.user_prompt_submit[1]" });
    assert.equal(r.decisions.length, 3);
    assert.ok(r.decisions.every((d) => d.seat === "turn.prompt_hook"));
    assert.deepEqual(await admitPrompt({ text: "hi" }, async () => [verdict("context", { context: "c" })], r), {
      context: ["[hook hooks.user_prompt_submit[0]] c"],
    });
    assert.deepEqual(await admitPrompt({ text: "hi" }, undefined, r), { context: [] });
  });

  it("a steering message passes the same hooks: blocked, it is left out and the person told", async () => {
    const r = recorder();
    const told: string[] = [];
    await admitSteering(
      "stop that",
      async () => [verdict("block", { reason: "not now" })],
      r,
      (m) => told.push(m),
    );
    assert.deepEqual(r.users, []);
    assert.match(told[0] ?? "", /blocked by a hook \(hooks\.user_prompt_submit\[0\]\): not now/);
    await admitSteering(
      "go on",
      async () => [verdict("context", { context: "x" })],
      r,
      (m) => told.push(m),
    );
    assert.deepEqual(r.users, ["go on"]);
    assert.deepEqual(r.notices, ["[hook hooks.user_prompt_submit[0]] x"]);
  });
});
