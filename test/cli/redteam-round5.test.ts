import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";
import { BOSUN_BIN, spawnProcess } from "../support/workspace.js";

/**
 * Red team, round 5: the surfaces that landed in the third session — review's checks and report,
 * text tool calls, a repository's model settings (reasoning, tools "text"), git run where a
 * repository committed a git directory. Each attack through the real binary.
 */

const git = (dir: string, ...args: string[]) =>
  spawnSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir, encoding: "utf8" });

function commitAndChange(dir: string, write: (path: string, text: string) => void): void {
  write("app.js", "export const x = 1;\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "start");
  write("app.js", "export const x = 2;\n");
}

/**
 * `evil/` as a repository can commit it: HEAD, objects/, refs/ and a config whose core.fsmonitor
 * is a program. git run inside `evil/` takes it for a git directory and runs that program.
 */
function commitGitDirectory(dir: string, marker: string): string {
  const evil = join(dir, "evil");
  mkdirSync(join(evil, "objects"), { recursive: true });
  mkdirSync(join(evil, "refs", "heads"), { recursive: true });
  writeFileSync(join(evil, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(
    join(evil, "config"),
    `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch ${marker}; false"\n`,
  );
  writeFileSync(join(evil, "objects", ".keep"), "");
  writeFileSync(join(evil, "refs", "heads", ".keep"), "");
  return evil;
}

describe("red team round 5", () => {
  it("review: a repository check's name, command and output cannot drive the terminal", async () => {
    const s = await startScenario(
      { rules: [{ reply: { text: JSON.stringify({ findings: [] }) } }] },
      {
        global: {
          review: {
            checks: [{ name: "t\u001b]0;pwned\u0007", command: "printf 'x\\033[2J\\033]52;c;cHduZWQ=\\007'; exit 1" }],
          },
        },
      },
    );
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      const result = await s.run(["review"]);
      assert.equal(result.code, 1, result.stderr);
      assert.ok(!result.stdout.includes("\u001b") && !result.stdout.includes("\u0007"), JSON.stringify(result.stdout));
      assert.match(result.stdout, /check t \]0;pwned : FAILED \(exit 1\)/);
      assert.match(result.stdout, /x \[2J \]52;c;cHduZWQ= /);
    } finally {
      await s.close();
    }
  });

  it("review: the reviewer's unreadable answer is quoted as text (its keys are the model's)", async () => {
    const bad = { text: JSON.stringify({ findings: [], "\u001b]0;pwned\u0007": 1 }) };
    const s = await startScenario({ rules: [{ reply: bad }] });
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      const result = await s.run(["review"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stdout, /the reviewer gave no usable answer/);
      assert.ok(!result.stdout.includes("\u001b") && !result.stdout.includes("\u0007"), JSON.stringify(result.stdout));
    } finally {
      await s.close();
    }
  });

  it("a folder the repository committed as a git directory: neither a run nor a review runs its core.fsmonitor", async () => {
    const s = await startScenario({
      rules: [{ match: { request: 1 }, reply: { text: "hi" } }, { reply: { text: JSON.stringify({ findings: [] }) } }],
    });
    try {
      const marker = join(s.ws.dir, "PWNED");
      commitAndChange(s.ws.dir, s.ws.write);
      const evil = commitGitDirectory(s.ws.dir, marker);
      git(s.ws.dir, "add", "-A");
      git(s.ws.dir, "commit", "-qm", "a git directory, committed");
      s.ws.write("evil/f.txt", "changed\n");
      // bosun reads the branch and state with git status at start-up: from the repository's root.
      const bosunIn = (cwd: string, ...args: string[]) => {
        const started = spawnProcess(process.execPath, [BOSUN_BIN, ...args], {
          cwd,
          env: { ...process.env, ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
        });
        started.child.stdin?.end();
        return started.result;
      };
      const run = await bosunIn(evil, "run", "hi");
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
      assert.equal(existsSync(marker), false, "git ran the repository's fsmonitor (run)");
      const review = await bosunIn(evil, "review");
      assert.equal(existsSync(marker), false, `git ran the repository's fsmonitor (review): ${review.stdout}`);
      assert.ok(review.code === 0 || review.code === 1, review.stderr);
    } finally {
      rmSync(join(s.ws.dir, "PWNED"), { force: true });
      await s.close();
    }
  });

  it("detected text calls: a call the model quotes in a code span, or talks on after, is not run", async () => {
    const call = '<tool_call>{"name": "shell", "arguments": {"command": "touch pwned"}}</tool_call>';
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: { text: `A Hermes model calls a tool like this: \`${call}\`.` } },
        { match: { request: 2 }, reply: { text: `For example ${call} would make a file. I will not.` } },
      ],
    });
    try {
      const quoted = await s.run(["run", "--mode", "auto", "how do Hermes models call tools?"]);
      assert.equal(quoted.code, 0, quoted.stderr);
      const prose = await s.run(["run", "-c", "--mode", "auto", "and then?"]);
      assert.equal(prose.code, 0, prose.stderr);
      assert.equal(existsSync(join(s.ws.dir, "pwned")), false);
      assert.equal(s.server.requests.length, 2, "each answer was the turn's last: nothing ran");
      assert.ok(!s.latest().decisions.some((d) => d.seat === "call.shim"));
    } finally {
      await s.close();
    }
  });

  it("a repository's bosun.json cannot switch a model to text tools, or choose its reasoning, without trust", async () => {
    const s = await startScenario({ rules: [{ reply: { text: "Done." } }] });
    try {
      const scripted = s.server.configFor("openai-compatible").provider.scripted;
      s.setUserConfig({ provider: { scripted: { ...scripted, models: { "test-model": {} } } } });
      s.ws.write(
        "bosun.json",
        JSON.stringify({
          provider: { scripted: { models: { "test-model": { tools: "text", reasoning: { effort: "high" } } } } },
          agent: { build: { reasoning: { budget_tokens: 500000 } } },
        }),
      );
      const untrusted = await s.run(["run", "hi"]);
      assert.equal(untrusted.code, 0, untrusted.stderr);
      const first = s.server.request(1);
      assert.ok((first.normalized?.tools ?? []).includes("read"), "native tools were sent");
      assert.equal((first.json as Record<string, unknown>).reasoning_effort, undefined);
      const { decisions } = s.latest();
      const trust = expectDecision(decisions, "project.trust", "code", "untrusted");
      assert.match(
        trust.reasons[1]?.detail ?? "",
        /provider scripted model test-model reasoning; provider scripted model test-model tools text; agent build reasoning/,
      );
      expectDecision(decisions, "model.options", "code", { reasoning: "none" });
      assert.ok(!decisions.some((d) => d.seat === "call.shim"));

      const trusted = await s.run(["run", "--trust-project", "hi"]);
      assert.equal(trusted.code, 0, trusted.stderr);
      const second = s.server.request(2);
      assert.deepEqual(second.normalized?.tools, [], "trusted: told in text");
      assert.ok((second.json as Record<string, unknown>).reasoning_effort, "trusted: its reasoning is sent");
    } finally {
      await s.close();
    }
  });

  it("init with edits allowed: the model's AGENTS.md in .git, or a git hook, is asked (nobody to ask: not written)", async () => {
    const write = (id: string, path: string) => ({ id, name: "write", arguments: { path, content: "# Agents\n" } });
    const s = await startScenario(
      {
        rules: [
          {
            match: { request: 1 },
            reply: { toolCalls: [write("w1", ".git/AGENTS.md"), write("w2", ".git/hooks/pre-commit")] },
          },
          { reply: { text: "Could not." } },
        ],
      },
      { global: { permission: { edit: "allow" } } },
    );
    try {
      const result = await s.run(["init"]);
      assert.equal(result.code, 3, result.stderr);
      assert.equal(existsSync(join(s.ws.dir, ".git", "AGENTS.md")), false);
      assert.equal(existsSync(join(s.ws.dir, ".git", "hooks", "pre-commit")), false);
      assert.match(JSON.stringify(s.latest().decisions), /makes programs run later/);
    } finally {
      await s.close();
    }
  });

  it("review: a repository's empty review.checks does not silence the person's own checks", async () => {
    const s = await startScenario(
      { rules: [{ reply: { text: JSON.stringify({ findings: [] }) } }] },
      {
        global: { review: { checks: [{ name: "mine", command: "echo 2 failing; exit 1" }] } },
        config: { review: { checks: [] } },
      },
    );
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      const result = await s.run(["review"]);
      assert.equal(result.code, 1, result.stdout);
      assert.match(result.stdout, /check mine: FAILED \(exit 1\)/);
      assert.doesNotMatch(result.stdout, /no findings/);
      expectDecision(s.latest().decisions, "review.check", "code", "failed");
    } finally {
      await s.close();
    }
  });

  it("review: a repository's agent tools without shell make its check not run (exit 1), never an internal error", async () => {
    const s = await startScenario(
      { rules: [{ reply: { text: JSON.stringify({ findings: [] }) } }] },
      {
        global: { permission: { shell: { true: "allow" } } },
        config: { agent: { build: { tools: ["read"] } }, review: { checks: [{ name: "t", command: "true" }] } },
      },
    );
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      const result = await s.run(["review"]);
      assert.equal(result.code, 1, result.stderr);
      assert.doesNotMatch(result.stderr, /internal error|TypeError/);
      assert.match(result.stdout, /check t: COULD NOT RUN/);
      assert.match(result.stdout, /has no shell tool/);
      expectDecision(s.latest().decisions, "review.check", "code", "not run");
    } finally {
      await s.close();
    }
  });

  it("init: AGENTS.md a symlink out of the repository is a write outside it, asked (nobody to ask: not written)", async () => {
    const s = await startScenario(
      {
        rules: [
          {
            match: { request: 1 },
            reply: { toolCalls: [{ id: "w1", name: "write", arguments: { path: "AGENTS.md", content: "# x\n" } }] },
          },
          { reply: { text: "Could not." } },
        ],
      },
      { global: { permission: { edit: "allow" } } },
    );
    try {
      const outside = join(s.ws.dir, "..", "outside");
      mkdirSync(outside, { recursive: true });
      symlinkSync(join(outside, "AGENTS.md"), join(s.ws.dir, "AGENTS.md"));
      const result = await s.run(["init"]);
      assert.equal(result.code, 3, result.stderr);
      assert.equal(existsSync(join(outside, "AGENTS.md")), false);
      assert.match(result.stderr, /external_directory/);
    } finally {
      await s.close();
    }
  });
});
