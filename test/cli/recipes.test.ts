import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { sentText, startScenario } from "../support/scenario.js";

/** Recipes through the real binary (issue 20 item 1): parameters, settings and trust, the response schema. */

const FIX = `title: Fix a test
description: Fix one failing test
prompt: "Fix the test {{ name }} in {{ area }}; retry {{ times }} times"
parameters:
  - name: name
    required: true
    description: the test's name
  - name: area
    type: enum
    values: [core, cli]
    default: core
  - name: times
    type: number
    default: 1
`;

describe("bosun run --recipe", () => {
  it("a missing required parameter is a usage error naming it (exit 2); an unknown one too", async () => {
    const s = await startScenario({ rules: [] });
    try {
      s.ws.write(".bosun/recipes/fix.yaml", FIX);
      const missing = await s.run(["run", "--recipe", "fix"]);
      assert.equal(missing.code, 2, missing.stderr);
      assert.match(missing.stderr, /needs parameter "name"/);
      const unknown = await s.run(["run", "--recipe", "fix", "--param", "name=a", "--param", "colour=red"]);
      assert.equal(unknown.code, 2, unknown.stderr);
      assert.match(unknown.stderr, /no parameter "colour"/);
      const badEnum = await s.run(["run", "--recipe", "fix", "--param", "name=a", "--param", "area=web"]);
      assert.equal(badEnum.code, 2);
      assert.match(badEnum.stderr, /must be one of core, cli/);
      const noRecipe = await s.run(["run", "--recipe", "nope"]);
      assert.equal(noRecipe.code, 2);
      assert.match(noRecipe.stderr, /no recipe "nope" \(recipes: fix/);
      const outside = await s.run(["run", "--recipe", "../../etc/passwd"]);
      assert.equal(outside.code, 2);
      assert.equal(s.server.requests.length, 0);
    } finally {
      await s.close();
    }
  });

  it("a value holding !`cmd`, $(…) or {{ other }} is inserted as text and never run", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "done" } }] });
    try {
      s.ws.write(".bosun/recipes/fix.yaml", FIX);
      const value = "!`touch marker-a` $(touch marker-b) {{ area }}";
      const result = await s.run(["run", "--recipe", "fix", "--param", `name=${value}`, "--param", "times=3"]);
      assert.equal(result.code, 0, result.stderr);
      const sent =
        s.server
          .request(1)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.ok(sent.includes(`Fix the test ${value} in core; retry 3 times`), sent);
      assert.equal(existsSync(join(s.ws.dir, "marker-a")), false);
      assert.equal(existsSync(join(s.ws.dir, "marker-b")), false);
      expectDecision(s.latest().decisions, "recipe.settings", "code", "none");
    } finally {
      await s.close();
    }
  });

  it("a file parameter must name a file; its path is inserted, not its contents", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "read it" } }] });
    try {
      s.ws.write(
        ".bosun/recipes/explain.yaml",
        `title: Explain\nprompt: "Explain {{ target }}"\nparameters:\n  - name: target\n    type: file\n    required: true\n`,
      );
      s.ws.write("notes.txt", "SECRET-CONTENTS\n");
      const missing = await s.run(["run", "--recipe", "explain", "--param", "target=nothere.txt"]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--param target: no file "nothere.txt"/);
      const result = await s.run(["run", "--recipe", "explain", "--param", "target=notes.txt"]);
      assert.equal(result.code, 0, result.stderr);
      const sent =
        s.server
          .request(1)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(sent, /Explain notes\.txt/);
      assert.doesNotMatch(sent, /SECRET-CONTENTS/);
    } finally {
      await s.close();
    }
  });

  it("a response schema met ends done; one never met is asked again twice, then fails (exit 1, recorded)", async () => {
    const schema = `response:\n  type: object\n  required: [summary]\n  properties:\n    summary: { type: string }\n`;
    const met = await startScenario({ rules: [{ reply: { text: '{"summary": "all good"}' } }] });
    try {
      met.ws.write(".bosun/recipes/sum.yaml", `title: Sum\nprompt: Summarise\n${schema}`);
      const result = await met.run(["run", "--recipe", "sum"]);
      assert.equal(result.code, 0, result.stderr);
      expectDecision(met.latest().decisions, "recipe.response", "code", "valid");
    } finally {
      await met.close();
    }
    const unmet = await startScenario({ rules: [{ reply: { text: "not json at all" }, times: 3 }] });
    try {
      unmet.ws.write(".bosun/recipes/sum.yaml", `title: Sum\nprompt: Summarise\n${schema}`);
      const result = await unmet.run(["run", "--recipe", "sum"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr + result.stdout, /does not satisfy the recipe's response schema/);
      assert.equal(unmet.server.requests.length, 3);
      const again =
        unmet.server
          .request(2)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(again, /does not satisfy the recipe's response schema/);
      const { decisions } = unmet.latest();
      expectDecision(decisions, "recipe.response", "code", "invalid");
      expectDecision(decisions, "recipe.response", "code", "failed");
    } finally {
      await unmet.close();
    }
  });

  it("a repository's recipe asking for mode auto is refused without trust (recorded, how to allow); with --trust-project it applies", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "ok" }, times: 2 }] });
    try {
      s.ws.write(".bosun/recipes/yolo.yaml", "title: Yolo\nprompt: do it all\nmode: auto\n");
      const refused = await s.run(["run", "--recipe", "yolo"]);
      assert.equal(refused.code, 0, refused.stderr);
      assert.match(refused.stderr, /not applying what recipe yolo .* would loosen \(mode auto\).*--trust-project/);
      let { decisions } = s.latest();
      const settings = expectDecision(decisions, "recipe.settings", "code", "refused");
      assert.match(JSON.stringify(settings.reasons), /--trust-project applies it/);
      expectDecision(decisions, "permission.mode", "code", "approve");
      const trusted = await s.run(["run", "--recipe", "yolo", "--trust-project"]);
      assert.equal(trusted.code, 0, trusted.stderr);
      ({ decisions } = s.latest());
      expectDecision(decisions, "recipe.settings", "config", "applied");
      expectDecision(decisions, "permission.mode", "config", "auto");
    } finally {
      await s.close();
    }
  });

  it("the person's own recipe (config dir) applies its mode; --mode wins over it", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "ok" }, times: 2 }] });
    try {
      mkdirSync(join(s.ws.home, "recipes"), { recursive: true });
      writeFileSync(join(s.ws.home, "recipes", "mine.yaml"), "title: Mine\nprompt: do it\nmode: smart\n");
      const own = await s.run(["run", "--recipe", "mine"]);
      assert.equal(own.code, 0, own.stderr);
      expectDecision(s.latest().decisions, "permission.mode", "config", "smart");
      const flag = await s.run(["run", "--recipe", "mine", "--mode", "chat"]);
      assert.equal(flag.code, 0, flag.stderr);
      expectDecision(s.latest().decisions, "recipe.settings", "person", "applied");
      expectDecision(s.latest().decisions, "permission.mode", "person", "chat");
    } finally {
      await s.close();
    }
  });
});

describe("a recipe's checks (its goal, seat turn.goal)", () => {
  const FLAKY_ONCE = "if [ -f .tried ]; then exit 0; fi; touch .tried; echo 'FAIL: expected 2, got 3'; exit 1";

  it("a failing check is fed back, then passes: done (the person's own recipe)", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      mkdirSync(join(s.ws.home, "recipes"), { recursive: true });
      writeFileSync(
        join(s.ws.home, "recipes", "fix.yaml"),
        `title: Fix\nprompt: fix the test\nchecks:\n  - ${JSON.stringify(FLAKY_ONCE)}\nretries: 2\n`,
      );
      const result = await s.run(["run", "--recipe", "fix"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 2);
      assert.match(sentText(s, 2), /FAIL: expected 2, got 3/);
      const { decisions } = s.latest();
      const passed = expectDecision(decisions, "turn.goal", "config", "passed");
      assert.equal(passed.subject?.attempt, 2);
    } finally {
      await s.close();
    }
  });

  it("a check that keeps failing: fed back up to retries, then the run fails (exit 1), recorded", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      mkdirSync(join(s.ws.home, "recipes"), { recursive: true });
      writeFileSync(
        join(s.ws.home, "recipes", "fix.yaml"),
        "title: Fix\nprompt: fix the test\nchecks: ['echo still failing; exit 4']\nretries: 1\n",
      );
      const result = await s.run(["run", "--recipe", "fix"]);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(s.server.requests.length, 2, "fed back once (retries: 1), then failed");
      assert.match(sentText(s, 2), /still failing/);
      const { decisions } = s.latest();
      expectDecision(decisions, "turn.goal", "config", "continue");
      assert.ok(decisions.some((d) => d.seat === "turn.goal" && d.answer !== "continue" && d.answer !== "passed"));
    } finally {
      await s.close();
    }
  });

  it("--until beside a recipe's checks is a usage error (exit 2): one goal", async () => {
    const s = await startScenario({ rules: [] });
    try {
      s.ws.write(".bosun/recipes/fix.yaml", "title: Fix\nprompt: fix it\nchecks: ['true']\n");
      const result = await s.run(["run", "--recipe", "fix", "--until", "true"]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /--until and a recipe with checks/);
      assert.equal(s.server.requests.length, 0);
    } finally {
      await s.close();
    }
  });

  it("a repository's recipe's check is the repository's command: not run unless the rules allow it (a failure)", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      s.ws.write(".bosun/recipes/fix.yaml", "title: Fix\nprompt: fix it\nchecks: ['touch pwned']\nretries: 0\n");
      const result = await s.run(["run", "--recipe", "fix"]);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, "pwned")), false);
      assert.match(result.stderr, /`touch pwned` could not run/);
      const notRun = s.latest().decisions.filter((d) => d.seat === "turn.goal");
      assert.ok(notRun.length > 0 && notRun.every((d) => d.answer !== "passed"));
    } finally {
      await s.close();
    }
  });
});

describe("bosun recipe", () => {
  it("list says where each comes from; show prints the parameters; validate prints file:line: key and exits 1", async () => {
    const s = await startScenario({ rules: [] });
    try {
      s.ws.write(".bosun/recipes/fix.yaml", FIX);
      s.ws.write(".bosun/recipes/broken.yaml", "title: Broken\nprompt: p\nretries: many\n");
      mkdirSync(join(s.ws.home, "recipes"), { recursive: true });
      writeFileSync(join(s.ws.home, "recipes", "mine.json"), JSON.stringify({ title: "Mine", prompt: "hello" }));
      const list = await s.run(["recipe", "list"]);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /fix\s+repository\s+\.bosun\/recipes\/fix\.yaml\s+Fix a test/);
      assert.match(list.stdout, /mine\s+yours \(config dir\)/);
      assert.match(list.stdout, /broken\s+repository.*\(invalid:/);
      const show = await s.run(["recipe", "show", "fix"]);
      assert.equal(show.code, 0, show.stderr);
      assert.match(show.stdout, /name {2}string, required {2}— the test's name/);
      assert.match(show.stdout, /area {2}enum \(core \| cli\), default "core"/);
      const one = await s.run(["recipe", "validate", "fix"]);
      assert.equal(one.code, 0, one.stderr);
      assert.match(one.stdout, /ok: \.bosun\/recipes\/fix\.yaml/);
      const all = await s.run(["recipe", "validate"]);
      assert.equal(all.code, 1);
      assert.match(all.stderr, /^\.bosun\/recipes\/broken\.yaml:3: retries: must be a whole number/m);
      s.ws.write(".bosun/recipes/bad-schema.yaml", "title: B\nprompt: p\nresponse:\n  type: 12\n");
      const schema = await s.run(["recipe", "validate", "bad-schema"]);
      assert.equal(schema.code, 1);
      assert.match(schema.stderr, /bad-schema\.yaml:3: response: the schema cannot be compiled/);
    } finally {
      await s.close();
    }
  });
});

describe("sub_recipes", () => {
  it("each is offered by name for the task tool's recipe: the model's task call runs it under the delegation rules", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { lastMessage: "Ship {{" },
            reply: { text: "unexpected: the template was not filled" },
          },
          {
            match: { lastMessage: "Ship widget" },
            reply: {
              toolCalls: [
                {
                  name: "task",
                  id: "t1",
                  arguments: { recipe: "review" },
                },
              ],
            },
          },
          { match: { lastMessage: "Review widget carefully" }, reply: { text: "REVIEWED widget" } },
          { match: { anyMessage: "REVIEWED widget" }, reply: { text: "Shipped." } },
        ],
      },
      { global: { mode: "auto" } },
    );
    try {
      s.ws.write(
        ".bosun/recipes/ship.yaml",
        'title: Ship\nprompt: "Ship {{ thing }}"\nsub_recipes: [review]\nparameters:\n  - name: thing\n    required: true\n',
      );
      s.ws.write(
        ".bosun/recipes/review.yaml",
        'title: Review\nprompt: "Review {{ thing }} carefully"\nagent: plan\nparameters:\n  - name: thing\n    required: true\n',
      );
      const result = await s.run(["run", "--recipe", "ship", "--param", "thing=widget"]);
      assert.equal(result.code, 0, result.stderr);
      const sent = sentText(s, 1);
      assert.match(sent, /with the task tool, giving recipe: "<name>" \(and params/);
      assert.match(
        sent,
        /sub-recipe "review" \(Review\): task recipe "review", agent "plan"; params thing \(the parent's: "widget"\)/,
      );
      // Its prompt is not copied into the parent's: the delegate is given it, rendered with the parent's value.
      assert.doesNotMatch(sent, /Review widget carefully/);
      assert.ok(s.server.requests.some((_, i) => sentText(s, i + 1).includes("Review widget carefully")));
      assert.match(result.stderr, /↳ plan \(review\) started/);
      const settings = expectDecision(s.latest().decisions, "recipe.settings", "code", "none");
      assert.match(JSON.stringify(settings.reasons), /sub-recipes.*review/);
      const bad = await s.run(["recipe", "validate", "ship"]);
      assert.equal(bad.code, 0, bad.stderr);
      s.ws.write(".bosun/recipes/loop.yaml", "title: L\nprompt: p\nsub_recipes: [nothere]\n");
      const missing = await s.run(["run", "--recipe", "loop"]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /loop\.yaml: sub_recipes: nothere: no recipe "nothere"/);
    } finally {
      await s.close();
    }
  });
});
