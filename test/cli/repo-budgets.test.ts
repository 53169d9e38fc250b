import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

/*
 * A repository's config may lower a budget but not raise one over its default without trust:
 * a cloned repository would otherwise decide how many steps, seconds and dollars of the person's
 * a goal may spend (seat project.trust, items from src/permission/trust/project-budgets.ts).
 */
describe("a repository's budgets", () => {
  it("a raised goal budget waits for trust; a lowered step budget applies at once", async () => {
    const s = await startScenario(
      { rules: [{ reply: { text: "Done." } }] },
      { config: { goal: { max_steps: 60, max_cost: 500 }, max_steps: 3 } },
    );
    try {
      s.setUserConfig({ goal: { max_steps: 2 } });
      const untrusted = await s.run(["run", "--until", "exit 4", "fix it"]);
      assert.equal(untrusted.code, 1, untrusted.stderr);
      assert.match(
        untrusted.stderr,
        /not applying what .*bosun\.json would loosen \(goal\.max_steps 60 \(over the default 50\); goal\.max_cost 500 \(over the default 5\)\): not trusted/,
      );
      let decisions = s.latest().decisions;
      const trust = expectDecision(decisions, "project.trust", "code", "untrusted");
      assert.match(trust.reasons.map((r) => r.detail).join("\n"), /goal\.max_cost 500/);
      assert.doesNotMatch(
        trust.reasons.map((r) => r.detail).join("\n"),
        /max_steps 3/,
        "a lowered budget is no loosening",
      );
      // The person's own 2 steps decided, not the repository's 60.
      const out = expectDecision(decisions, "turn.goal", "person", "out_of_budget");
      const steps = out.reasons.find((r) => r.key === "goal.max_steps");
      assert.equal(steps?.detail, "2 steps");
      assert.doesNotMatch(steps?.source ?? "", new RegExp(s.ws.dir));

      // Trusted, the repository's budgets hold: its 60 goal steps, and its 3 steps a turn stop the turn first.
      const trusted = await s.run(["run", "--trust-project", "--until", "exit 4", "fix it"]);
      assert.equal(trusted.code, 3, trusted.stderr);
      decisions = s.latest().decisions;
      expectDecision(decisions, "project.trust", "person", "trusted");
      const limit = expectDecision(decisions, "turn.limit", "config");
      assert.match(limit.reasons[0]?.source ?? "", new RegExp(`${s.ws.dir}/bosun\\.json`));
      const goal = decisions.filter((d) => d.seat === "turn.goal").at(-1);
      assert.equal(goal?.reasons.find((r) => r.key === "goal.max_steps")?.detail, "60 steps");
    } finally {
      await s.close();
    }
  });

  it("a repository's agent with a step budget over the default, and delegates wider or deeper, wait for trust", async () => {
    const s = await startScenario(
      { rules: [{ reply: { text: "Done." } }] },
      {
        config: {
          delegate: { max_depth: 3, max_parallel: 2 },
          agent: { build: { max_steps: 1000 } },
          hooks: { stop_limit: 50 },
          retry: { max_attempts: 10 },
        },
      },
    );
    try {
      const result = await s.run(["run", "--format", "json", "hello"]);
      assert.equal(result.code, 0, result.stderr);
      const trust = expectDecision(s.latest().decisions, "project.trust", "code", "untrusted");
      const items = trust.reasons.map((r) => r.detail).join("\n");
      for (const item of [
        "delegate.max_depth 3 (over the default 1)",
        "agent build max_steps 1000 (over the default 100)",
        "hooks.stop_limit 50 (over the default 3)",
        "retry.max_attempts 10 (over the default 4)",
      ])
        assert.ok(items.includes(item), `${item} in ${items}`);
      assert.ok(!items.includes("max_parallel"), "a lowered parallel limit is no loosening");
      const session = JSON.parse(result.stdout.split("\n")[0] ?? "{}") as { type?: string; maxSteps?: number };
      assert.equal(session.type, "session");
      assert.equal(session.maxSteps, 100, "the agent's 1000 steps left out");
    } finally {
      await s.close();
    }
  });
});
