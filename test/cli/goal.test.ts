import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { sentText, startScenario } from "../support/scenario.js";

const ended = (events: Array<{ type: string; data: unknown }>) =>
  events.filter((e) => e.type === "turn.ended").at(-1)?.data as { status: string; message?: string } | undefined;

/** Fails the first time (saying why), passes from then on: a test the model's next try fixes. */
const FLAKY_ONCE = "if [ -f .tried ]; then exit 0; fi; touch .tried; echo 'FAIL: expected 2, got 3'; exit 1";

describe("bosun run --until (seat turn.goal)", () => {
  it("a failed check goes back to the model with its output; the next one passes and the turn is done", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const result = await s.run(["run", "--until", FLAKY_ONCE, "fix the test"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 2, "sent back to work once");
      assert.match(result.stderr, /◎ goal `.*` exited 1 \(check 1\): back to the model\n/);
      assert.match(result.stderr, /◎ goal `.*` passed \(check 2\)\n/);
      assert.doesNotMatch(sentText(s, 1), /expected 2/);
      assert.match(sentText(s, 2), /The goal check `.*` exited 1:\nFAIL: expected 2, got 3/);
      const { decisions, events } = s.latest();
      const again = expectDecision(decisions, "turn.goal", "person", "continue");
      assert.equal(again.subject?.command, FLAKY_ONCE);
      assert.equal(again.subject?.exitCode, 1);
      assert.equal(again.subject?.attempt, 1);
      const passed = expectDecision(decisions, "turn.goal", "person", "passed");
      assert.equal(passed.subject?.exitCode, 0);
      assert.equal(passed.subject?.attempt, 2);
      assert.ok(passed.reasons.some((r) => r.rule === "the person's goal" && r.detail === "--until"));
      const steps = passed.reasons.find((r) => r.key === "goal.max_steps");
      assert.equal(steps?.source, "built-in");
      assert.equal(ended(events)?.status, "done");
      assert.ok(existsSync(join(s.ws.dir, ".tried")), "the check ran in the work tree");
    } finally {
      await s.close();
    }
  });

  it("a goal never reached: once goal.max_steps is spent the turn fails (exit 1), recorded with the budget's source", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      s.setUserConfig({ goal: { max_steps: 2 } });
      const result = await s.run(["run", "--until", "echo still failing; exit 4", "fix the test"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr,
        /goal not reached: `echo still failing; exit 4` exited 4, budget spent \(2 steps of 2\)/,
      );
      assert.equal(s.server.requests.length, 2);
      assert.match(sentText(s, 2), /still failing/);
      const { decisions, events } = s.latest();
      expectDecision(decisions, "turn.goal", "person", "continue");
      const out = expectDecision(decisions, "turn.goal", "person", "out_of_budget");
      assert.equal(out.subject?.exitCode, 4);
      assert.equal(out.subject?.attempt, 2);
      const steps = out.reasons.find((r) => r.key === "goal.max_steps");
      assert.equal(steps?.detail, "2 steps");
      assert.match(steps?.source ?? "", /bosun\.json$/);
      assert.equal(ended(events)?.status, "failed");
    } finally {
      await s.close();
    }
  });

  it("goal.max_seconds: a turn whose checks take the time it had fails, saying which budget", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      s.setUserConfig({ goal: { max_seconds: 1 } });
      const result = await s.run(["run", "--until", "sleep 1.2; exit 1", "fix the test"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /budget spent \(\d+\.\d s of 1 s\)/);
      assert.equal(s.server.requests.length, 1);
      const out = expectDecision(s.latest().decisions, "turn.goal", "person", "out_of_budget");
      assert.equal(out.reasons.find((r) => r.key === "goal.max_seconds")?.detail, "1 s");
    } finally {
      await s.close();
    }
  });

  it("goal.max_cost: where the model's prices are known, a turn that spent its budget fails", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const scripted = s.server.configFor("openai-compatible").provider.scripted;
      const price = { input: 1000, output: 1000 };
      s.setUserConfig({
        provider: { scripted: { ...scripted, models: { "test-model": { price } } } },
        goal: { max_cost: 0.01 },
      });
      const result = await s.run(["run", "--until", "exit 1", "fix the test"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /budget spent \(\$\d+\.\d\d of \$0\.01\)/);
      const out = expectDecision(s.latest().decisions, "turn.goal", "person", "out_of_budget");
      assert.equal(out.reasons.find((r) => r.key === "goal.max_cost")?.detail, "$0.01");
    } finally {
      await s.close();
    }
  });

  it("a command that cannot run is a failure, never success: fed back, then out of budget", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      s.setUserConfig({ goal: { max_steps: 2 } });
      const result = await s.run(["run", "--until", "no-such-check-xyz", "fix the test"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /`no-such-check-xyz` could not run/);
      assert.match(sentText(s, 2), /could not run: exit 127[^\n]*\n.*not found/);
      const { decisions } = s.latest();
      const first = expectDecision(decisions, "turn.goal", "person", "continue");
      assert.equal(first.subject?.exitCode, null);
      assert.equal(first.reasons[0]?.rule, "could not run");
      expectDecision(decisions, "turn.goal", "person", "out_of_budget");
      assert.ok(!decisions.some((d) => d.seat === "turn.goal" && d.answer === "passed"));
    } finally {
      await s.close();
    }
  });

  it("a check that overruns shell.max_timeout_ms is killed and counts as not run", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      s.setUserConfig({ goal: { max_steps: 1 }, shell: { timeout_ms: 300, max_timeout_ms: 500 } });
      const started = Date.now();
      const result = await s.run(["run", "--until", "sleep 30; exit 0", "fix the test"]);
      assert.ok(Date.now() - started < 15_000, "not waited out");
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /could not run: .*\[timed out after 500 ms\]/);
      const out = expectDecision(s.latest().decisions, "turn.goal", "person", "out_of_budget");
      assert.equal(out.subject?.exitCode, null);
    } finally {
      await s.close();
    }
  });

  it("every --until must pass; an empty one is a usage error (exit 2) and nothing runs", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const empty = await s.run(["run", "--until", "  ", "fix the test"]);
      assert.equal(empty.code, 2, empty.stderr);
      assert.match(empty.stderr, /--until needs a command/);
      assert.equal(s.server.requests.length, 0);
      const both = await s.run(["run", "--until", "true", "--until", "exit 3", "--max-steps", "1", "fix it"]);
      assert.notEqual(both.code, 0, both.stderr);
      const { decisions } = s.latest();
      expectDecision(decisions, "turn.goal", "person", "passed");
    } finally {
      await s.close();
    }
  });
});
