import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { RecordedDecision } from "../../src/contracts/decisions.js";
import { readDecisions } from "../../src/seats/record.js";
import { SessionStore } from "../../src/store/session-store.js";
import { expectDecision } from "../support/ledger.js";
import { type Scenario, sentText, startScenario } from "../support/scenario.js";

/**
 * A recipe's sub_recipes through the real binary (issue 20): the task tool's `recipe` runs a
 * sub-recipe as a delegate that IS it — its prompt (the parent's values shared), its checks fed
 * back up to its retries, its response schema — under the delegation rules; seat delegate.recipe
 * in the parent's ledger says which ran with which values, or that the call was refused.
 */

interface Stored {
  id: string;
  parentId: string | null;
  decisions: RecordedDecision[];
  events: Array<{ type: string; data: Record<string, unknown> }>;
}

/** Every session of the scenario's store, oldest first. */
function sessions(s: Scenario): Stored[] {
  const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
  try {
    return store
      .list()
      .reverse()
      .map((session) => ({
        id: session.id,
        parentId: session.parentId,
        decisions: readDecisions(store, session.id),
        events: store.events(session.id).map((e) => ({ type: e.type, data: e.data as Record<string, unknown> })),
      }));
  } finally {
    store.close();
  }
}

/** The person's own recipes (their config dir): their checks run as theirs. */
function recipes(s: Scenario, files: Record<string, string>): void {
  mkdirSync(join(s.ws.home, "recipes"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(s.ws.home, "recipes", `${name}.yaml`), text);
}

const SHIP =
  'title: Ship\nprompt: "Ship {{ thing }}"\nsub_recipes: [fix]\nparameters:\n  - name: thing\n    required: true\n';
const fix = (extra: string) =>
  `title: Fix\nprompt: "Fix {{ thing }} now, {{ times }} times"\nparameters:\n  - name: thing\n    required: true\n  - name: times\n    type: number\n    default: 1\n${extra}`;
const FLAKY_ONCE = "if [ -f .tried ]; then exit 0; fi; touch .tried; echo 'FAIL: expected 2, got 3'; exit 1";

const taskCall = (args: Record<string, unknown>, id = "t1") => ({ toolCalls: [{ name: "task", id, arguments: args }] });

/** The finished task calls of a session, as its journal holds them. */
function finishedCalls(session: Stored): Array<Record<string, unknown>> {
  return session.events.filter((e) => e.type === "call.finished").map((e) => e.data);
}

describe("sub_recipes run as delegates that are them", { concurrency: true }, () => {
  it("a check that fails once is fed back in the delegate, then passes: two child turns, the result says so", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: 'Sub-recipe "fix"' }, reply: { text: "Shipped." } },
        { match: { lastMessage: "Continue until it passes" }, reply: { text: "Fixed again." } },
        { match: { lastMessage: "Fix widget now, 3 times" }, reply: { text: "Fixed." } },
        { match: { lastMessage: "Ship widget" }, reply: taskCall({ recipe: "fix", params: { times: 3 } }) },
      ],
    });
    try {
      recipes(s, { ship: SHIP, fix: fix(`checks:\n  - ${JSON.stringify(FLAKY_ONCE)}\nretries: 2\n`) });
      const result = await s.run(["run", "--recipe", "ship", "--param", "thing=widget"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 4, "the parent, the delegate twice, the parent");
      assert.match(sentText(s, 3), /FAIL: expected 2, got 3/);
      assert.match(sentText(s, 4), /Sub-recipe "fix" done: its checks passed \(run 2 time\(s\)\)\./);
      const all = sessions(s);
      const parent = all.find((x) => x.parentId === null) as Stored;
      const child = all.find((x) => x.parentId === parent.id) as Stored;
      assert.ok(child, "the sub-recipe ran as a delegate of the parent");
      const ran = expectDecision(parent.decisions, "delegate.recipe", "code", 'fix {"thing":"widget","times":3}');
      assert.equal(ran.subject?.call, "t1");
      assert.match(JSON.stringify(ran.reasons), /thing: the parent's, times: the task call's/);
      expectDecision(child.decisions, "turn.goal", "config", "continue");
      const passed = expectDecision(child.decisions, "turn.goal", "config", "passed");
      assert.equal(passed.subject?.attempt, 2);
      expectDecision(child.decisions, "agent.select", "model", "build");
      const [finished] = finishedCalls(parent);
      assert.notEqual(finished?.isError, true);
    } finally {
      await s.close();
    }
  });

  it("a check that keeps failing: the parent's task result is a failure, never done, on record", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: 'Sub-recipe "fix" failed' }, reply: { text: "Could not ship." } },
        { match: { lastMessage: "Continue until it passes" }, reply: { text: "Fixed again." } },
        { match: { lastMessage: "Fix widget now" }, reply: { text: "Fixed." } },
        { match: { lastMessage: "Ship widget" }, reply: taskCall({ recipe: "fix" }) },
      ],
    });
    try {
      recipes(s, { ship: SHIP, fix: fix("checks: ['echo still failing; exit 4']\nretries: 1\n") });
      const result = await s.run(["run", "--recipe", "ship", "--param", "thing=widget"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 4, "fed back once (retries: 1), then the delegate failed");
      const told = sentText(s, 4);
      assert.match(told, /Sub-recipe "fix" failed: its checks did not pass \(run 2 time\(s\)\)\./);
      assert.match(told, /goal not reached: `echo still failing; exit 4` exited 4/);
      const all = sessions(s);
      const parent = all.find((x) => x.parentId === null) as Stored;
      const child = all.find((x) => x.parentId === parent.id) as Stored;
      expectDecision(parent.decisions, "delegate.recipe", "code", 'fix {"thing":"widget","times":1}');
      expectDecision(child.decisions, "turn.goal", "config", "out_of_budget");
      const [finished] = finishedCalls(parent);
      assert.equal(finished?.isError, true, "the task's result is recorded as a failure");
      assert.match(String(finished?.summary), /sub-recipe fix: failed/);
    } finally {
      await s.close();
    }
  });

  it("a response schema: an answer that does not fit is asked for again in the delegate; the valid one comes back", async () => {
    const schema = "response:\n  type: object\n  required: [ok]\n  properties:\n    ok:\n      type: boolean\n";
    const s = await startScenario({
      rules: [
        { match: { lastMessage: 'Sub-recipe "fix"' }, reply: { text: "Shipped." } },
        { match: { lastMessage: "Answer again with only the JSON value" }, reply: { text: '{"ok": true}' } },
        { match: { lastMessage: "Fix widget now" }, reply: { text: "It is fixed, I think." } },
        { match: { lastMessage: "Ship widget" }, reply: taskCall({ recipe: "fix" }) },
      ],
    });
    try {
      recipes(s, { ship: SHIP, fix: fix(schema) });
      const result = await s.run(["run", "--recipe", "ship", "--param", "thing=widget"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 4);
      const told = sentText(s, 4);
      assert.match(
        told,
        /Sub-recipe "fix" done: it has no checks\.\nIts response \(valid against its schema\):\n\{\n {2}"ok": true\n\}/,
      );
      const all = sessions(s);
      const parent = all.find((x) => x.parentId === null) as Stored;
      const child = all.find((x) => x.parentId === parent.id) as Stored;
      expectDecision(child.decisions, "recipe.response", "code", "invalid");
      expectDecision(child.decisions, "recipe.response", "code", "valid");
      expectDecision(parent.decisions, "delegate.recipe", "code", 'fix {"thing":"widget","times":1}');
    } finally {
      await s.close();
    }
  });

  it("a name not among sub_recipes, or a parameter it lacks, is refused: an error result naming the allowed ones, recorded; bosun why shows it", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: "has no parameter" }, reply: { text: "Gave up." } },
        {
          match: { lastMessage: "is not a sub-recipe" },
          reply: taskCall({ recipe: "fix", params: { colour: "red" } }, "t2"),
        },
        { match: { lastMessage: "Ship widget" }, reply: taskCall({ recipe: "deploy", agent: "build" }) },
      ],
    });
    try {
      recipes(s, { ship: SHIP, fix: fix(""), deploy: "title: Deploy\nprompt: deploy it\n" });
      const result = await s.run(["run", "--recipe", "ship", "--param", "thing=widget"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 3);
      assert.match(
        sentText(s, 2),
        /No delegate ran: "deploy" is not a sub-recipe of this run's recipe \(allowed: "fix"\)/,
      );
      assert.match(sentText(s, 3), /No delegate ran: sub-recipe "fix": recipe "Fix" has no parameter "colour"/);
      const all = sessions(s);
      assert.equal(all.length, 1, "no delegate was started");
      const parent = all[0] as Stored;
      const refused = parent.decisions.filter((d) => d.seat === "delegate.recipe");
      assert.deepEqual(
        refused.map((d) => [d.answer, d.subject?.call]),
        [
          ["refused", "t1"],
          ["refused", "t2"],
        ],
      );
      expectDecision(parent.decisions, "delegate.recipe", "code", "refused");
      assert.ok(finishedCalls(parent).every((call) => call.isError === true));
      const why = await s.run(["why", parent.id, "--seat", "delegate.recipe"], { env: { COLUMNS: "400" } });
      assert.equal(why.code, 0, why.stderr);
      assert.match(why.stdout, /delegate\.recipe +code +refused +.*"deploy" is not a sub-recipe/);
    } finally {
      await s.close();
    }
  });

  it("a sub-recipe's mode narrows the session's, never loosens it", async () => {
    const s = await startScenario(
      {
        rules: [
          { match: { lastMessage: 'Sub-recipe "fix"' }, reply: { text: "Shipped." } },
          { match: { lastMessage: "Fix widget now" }, reply: { text: "Fixed." } },
          { match: { lastMessage: "Ship widget" }, reply: taskCall({ recipe: "fix" }) },
        ],
      },
      { global: { mode: "auto" } },
    );
    try {
      const modeOfChild = () => {
        const all = sessions(s);
        const child = all.find((x) => x.parentId !== null) as Stored;
        return String(expectDecision(child.decisions, "delegate.authority", "code").answer).split(" ")[0];
      };
      recipes(s, { ship: SHIP, fix: fix("mode: chat\n") });
      let result = await s.run(["run", "--recipe", "ship", "--param", "thing=widget"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(modeOfChild(), "chat", "narrower than the session's auto: it applies");
      recipes(s, { fix: fix("mode: auto\n") });
      result = await s.run(["run", "--recipe", "ship", "--param", "thing=widget", "--mode", "approve"]);
      assert.equal(result.code, 0, result.stderr);
      const all = sessions(s);
      const parent = all.filter((x) => x.parentId === null).at(-1) as Stored;
      const child = all.find((x) => x.parentId === parent.id) as Stored;
      const authority = expectDecision(child.decisions, "delegate.authority", "code");
      assert.match(String(authority.answer), /^approve /, "looser than the session's approve: the session's holds");
    } finally {
      await s.close();
    }
  });

  it("a repository's sub-recipe's check is the repository's command, judged in the delegate: not run unless the rules allow it", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: 'Sub-recipe "fix" failed' }, reply: { text: "Could not ship." } },
        { match: { lastMessage: "Fix widget now" }, reply: { text: "Fixed." } },
        { match: { lastMessage: "Ship widget" }, reply: taskCall({ recipe: "fix" }) },
      ],
    });
    try {
      s.ws.write(".bosun/recipes/ship.yaml", SHIP);
      s.ws.write(".bosun/recipes/fix.yaml", fix("checks: ['touch pwned']\nretries: 0\n"));
      const result = await s.run(["run", "--recipe", "ship", "--param", "thing=widget"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "pwned")), false);
      assert.match(sentText(s, 3), /Sub-recipe "fix" failed: its checks did not pass/);
      assert.match(sentText(s, 3), /`touch pwned` could not run/);
      const child = sessions(s).find((x) => x.parentId !== null) as Stored;
      expectDecision(child.decisions, "turn.goal", "config", "out_of_budget");
      assert.ok(child.decisions.some((d) => d.seat === "call.permission" && d.answer !== "allow"));
    } finally {
      await s.close();
    }
  });

  it("bosun why shows which sub-recipe ran with which values (holder code)", async () => {
    const s = await startScenario({
      rules: [
        { match: { lastMessage: 'Sub-recipe "fix"' }, reply: { text: "Shipped." } },
        { match: { lastMessage: "Fix widget now" }, reply: { text: "Fixed." } },
        { match: { lastMessage: "Ship widget" }, reply: taskCall({ recipe: "fix" }) },
      ],
    });
    try {
      recipes(s, { ship: SHIP, fix: fix("") });
      const result = await s.run(["run", "--recipe", "ship", "--param", "thing=widget"]);
      assert.equal(result.code, 0, result.stderr);
      const parent = sessions(s).find((x) => x.parentId === null) as Stored;
      const why = await s.run(["why", parent.id, "--seat", "delegate.recipe"], { env: { COLUMNS: "400" } });
      assert.equal(why.code, 0, why.stderr);
      assert.match(why.stdout, /delegate\.recipe +code +fix \{"thing":"widget","times":1\}/);
    } finally {
      await s.close();
    }
  });
});
