import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

const done = { reply: { text: "Done." } };

const REVIEWER = `---
description: Reviews the change
read_only: true
tools: [read, grep, WebThing]
max_steps: 7
---
You are the reviewer from the bosun file.
`;

const CLAUDE_REVIEWER = `---
name: reviewer
description: Claude's reviewer
tools: Read, Grep
model: sonnet
---
You are the reviewer from the Claude file.
`;

describe("agents from files", () => {
  it("a .bosun/agents file shadows .claude/agents' of the same name; --agent runs it with its prompt (agent.catalog)", async () => {
    const s = await startScenario({ rules: [done] });
    try {
      s.ws.write(".bosun/agents/reviewer.md", REVIEWER);
      s.ws.write(".claude/agents/reviewer.md", CLAUDE_REVIEWER);
      s.ws.write(
        ".claude/agents/tester.md",
        "---\nname: test-runner\ntools: Bash, Read\ncolor: red\n---\nRun the tests.\n",
      );
      const run = await s.run(["run", "--agent", "reviewer", "go"]);
      assert.equal(run.code, 0, run.stderr);
      const system = s.server.request(1).normalized?.system ?? "";
      assert.match(system, /You are the reviewer from the bosun file\./);
      assert.doesNotMatch(system, /Claude file/);

      const { decisions } = s.latest();
      expectDecision(decisions, "agent.select", "person", "reviewer");
      const catalog = expectDecision(decisions, "agent.catalog", "config", [
        "build",
        "plan",
        "reviewer",
        "test-runner",
      ]);
      const bosunFile = join(s.ws.dir, ".bosun/agents/reviewer.md");
      const claudeFile = join(s.ws.dir, ".claude/agents/reviewer.md");
      assert.ok(
        catalog.reasons.some(
          (r) => r.rule === "shadowed" && r.detail === `reviewer: ${claudeFile} is shadowed by ${bosunFile}`,
        ),
        JSON.stringify(catalog.reasons),
      );
      assert.ok(catalog.reasons.some((r) => r.rule === "agent" && r.detail === "reviewer (read-only)"));
      assert.ok(catalog.reasons.some((r) => r.rule === "unknown tools" && /WebThing/.test(r.detail ?? "")));
      assert.ok(catalog.reasons.some((r) => r.rule === "left out" && /test-runner: color/.test(r.detail ?? "")));

      const why = await s.run(["why", "--all", "--seat", "agent.catalog"]);
      assert.equal(why.code, 0, why.stderr);
      assert.match(why.stdout, /agent\.catalog\s+config\s+build, plan, reviewer, test-runner/);
      const whyJson = await s.run(["why", "--seat", "agent.catalog", "--json"]);
      assert.ok(whyJson.stdout.includes(`is shadowed by ${bosunFile}`), whyJson.stdout);

      const listed = await s.run(["agents", "--format", "json"]);
      assert.equal(listed.code, 0, listed.stderr);
      const json = JSON.parse(listed.stdout) as {
        agents: Array<{ name: string; source: string; readOnly: boolean; tools?: string[] }>;
        shadowed: Array<{ file: string; by: string }>;
      };
      const reviewer = json.agents.find((a) => a.name === "reviewer");
      assert.deepEqual(reviewer, {
        name: "reviewer",
        description: "Reviews the change",
        source: bosunFile,
        readOnly: true,
        tools: ["read", "grep", "WebThing"],
      });
      assert.deepEqual(json.agents.find((a) => a.name === "test-runner")?.tools, ["shell", "read"]);
      assert.deepEqual(
        json.shadowed.map((f) => [f.file, f.by]),
        [[claudeFile, bosunFile]],
      );
      const text = await s.run(["agents", "list"]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(
        text.stdout,
        /reviewer\s+yes\s+-\s+read,grep,WebThing\s+\.bosun\/agents\/reviewer\.md\s+Reviews the change/,
      );
      assert.match(
        text.stdout,
        /shadowed:\n {2}reviewer: \.claude\/agents\/reviewer\.md \(shadowed by \.bosun\/agents\/reviewer\.md\)/,
      );
      assert.match(text.stdout, /unknown tools:\n {2}reviewer: WebThing — no tool of bosun's has that name/);
    } finally {
      await s.close();
    }
  });

  it("no agent file: no agent.catalog decision (the ledger stays lean)", async () => {
    const s = await startScenario({ rules: [done] });
    try {
      assert.equal((await s.run(["run", "go"])).code, 0);
      assert.ok(!s.latest().decisions.some((d) => d.seat === "agent.catalog"));
    } finally {
      await s.close();
    }
  });

  it("a foreign file that does not parse is skipped with a warning naming it; the run goes on", async () => {
    const s = await startScenario({ rules: [done] });
    try {
      s.ws.write(".opencode/agent/broken.md", "---\ntools: [\n---\nbroken\n");
      const run = await s.run(["run", "go"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /not using agent file .*\.opencode\/agent\/broken\.md: front matter is not valid YAML/);
      const catalog = expectDecision(s.latest().decisions, "agent.catalog", "code", ["build", "plan"]);
      assert.ok(catalog.reasons.some((r) => r.rule === "skipped file"));
    } finally {
      await s.close();
    }
  });

  it("an untrusted repository's agent file gets neither its mode auto nor its allow rule; --trust-project does", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { lastMessage: "go" },
          reply: { toolCalls: [{ id: "t", name: "shell", arguments: { command: "touch made.txt" } }] },
        },
        done,
      ],
    });
    try {
      s.ws.write(
        ".bosun/agents/runner.md",
        '---\nmode: auto\npermission:\n  shell:\n    "touch *": allow\n---\nYou run things.\n',
      );
      const untrusted = await s.run(["run", "--agent", "runner", "go"]);
      assert.equal(untrusted.code, 3, untrusted.stderr);
      assert.match(
        untrusted.stderr,
        /not applying what .*runner\.md would loosen \(agent runner mode auto; agent runner: allow shell:touch \*\)/,
      );
      assert.equal(existsSync(join(s.ws.dir, "made.txt")), false);
      let { decisions } = s.latest();
      expectDecision(decisions, "project.trust", "code", "untrusted");
      expectDecision(decisions, "permission.mode", "code", "approve");

      const trusted = await s.run(["run", "--trust-project", "--agent", "runner", "go"]);
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.ok(existsSync(join(s.ws.dir, "made.txt")));
      ({ decisions } = s.latest());
      expectDecision(decisions, "project.trust", "person", "trusted");
      const mode = expectDecision(decisions, "permission.mode", "config", "auto");
      assert.ok(JSON.stringify(mode.reasons).includes("runner.md"), JSON.stringify(mode.reasons));
    } finally {
      await s.close();
    }
  });

  it("the built-in plan stays read-only: a file that says read_only: false is refused at its line", async () => {
    const s = await startScenario({ rules: [done] });
    try {
      s.ws.write(".bosun/agents/plan.md", "---\ndescription: planner\nread_only: false\n---\nPlan.\n");
      const run = await s.run(["run", "--agent", "plan", "go"]);
      assert.equal(run.code, 2);
      assert.match(
        run.stderr,
        /\.bosun\/agents\/plan\.md:3: key "agent\.plan\.read_only": the built-in plan agent is always read-only/,
      );
    } finally {
      await s.close();
    }
  });
});
