import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { RecordedDecision } from "../../src/contracts/decisions.js";
import type { GoalSpec } from "../../src/contracts/goal.js";
import { expectDecision } from "../support/ledger.js";
import { startModelServer } from "../support/model-server.js";
import { createWorkspace } from "../support/workspace.js";

/**
 * A recipe's checks as the recipes face hands them over (SessionOptions.goal): the runtime opened
 * in this process, since `bosun run --recipe` is another branch's. A repository's recipe's checks
 * are commands the repository brings, judged by the gate; the person's own recipe's run as theirs.
 */
async function runRecipeGoal(fromRepository: boolean, extra: Record<string, unknown> = {}) {
  const ws = createWorkspace();
  const server = await startModelServer({ rules: [{ reply: { text: "Done." } }] });
  writeFileSync(
    join(ws.home, "bosun.json"),
    JSON.stringify({ ...server.configFor("openai-compatible"), goal: { max_steps: 2 }, ...extra }),
  );
  process.env.BOSUN_HOME = ws.home;
  const { openRuntime } = await import("../../src/runtime/open.js");
  const decisions: RecordedDecision[] = [];
  const controller = new AbortController();
  const goal: GoalSpec = {
    source: { kind: "recipe", file: join(ws.dir, ".bosun/recipes/fix.yaml"), fromRepository },
    commands: ["touch checked"],
    retries: 1,
  };
  try {
    const live = await openRuntime({
      cwd: ws.dir,
      options: { goal },
      interactive: false,
      onDecision: (decision) => decisions.push(decision),
      onLeaseLost: () => controller.abort(),
      warn: () => {},
      signal: controller.signal,
    });
    const outcome = await live.turn(
      { text: "fix it" },
      {
        emit: (event) => {
          if (event.type === "decision") decisions.push(event.decision);
        },
        signal: controller.signal,
      },
    );
    await live.close();
    return { outcome, decisions, ran: existsSync(join(ws.dir, "checked")), requests: server.requests.length };
  } finally {
    await server.close();
    ws.cleanup();
  }
}

describe("a recipe's checks as the turn's goal (seat turn.goal, holder config)", () => {
  it("a repository's recipe's check is judged as the repository's: not allowed, it does not run, and the goal fails", async () => {
    const { outcome, decisions, ran, requests } = await runRecipeGoal(true);
    assert.equal(ran, false, "refused by the gate: nobody asked, never run");
    assert.equal(outcome.status, "failed");
    assert.match(outcome.message ?? "", /could not run/);
    assert.equal(requests, 2, "the refusal went back to the model once (retries 1), then the turn failed");
    const first = expectDecision(decisions, "turn.goal", "config", "continue");
    assert.equal(first.subject?.exitCode, null);
    assert.match(JSON.stringify(first.reasons), /a check the repository's recipe brings/);
    expectDecision(decisions, "turn.goal", "config", "out_of_budget");
  });

  it("allowed by the person's own rules, the repository's check runs and passes", async () => {
    const { outcome, decisions, ran } = await runRecipeGoal(true, {
      permission: { shell: { "touch checked": "allow" } },
    });
    assert.equal(ran, true);
    assert.equal(outcome.status, "done", outcome.message);
    const passed = expectDecision(decisions, "turn.goal", "config", "passed");
    assert.match(String(passed.subject?.recipe), /fix\.yaml$/);
  });

  it("the person's own recipe's check runs as theirs", async () => {
    const { outcome, decisions, ran } = await runRecipeGoal(false);
    assert.equal(ran, true);
    assert.equal(outcome.status, "done", outcome.message);
    const passed = expectDecision(decisions, "turn.goal", "config", "passed");
    assert.match(JSON.stringify(passed.reasons), /a check of the person's recipe/);
  });
});
