import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario } from "../support/scenario.js";

/** `bosun review`: checks first, then the read-only reviewer's findings; exit codes as the README says. */

const findings = (items: Array<{ file: string; line: number; severity: string; text: string }>) => ({
  text: JSON.stringify({ findings: items }),
});

function commitAndChange(dir: string, write: (path: string, text: string) => void): void {
  write("app.js", "export const x = 1;\n");
  const git = (...args: string[]) =>
    spawnSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: dir });
  git("add", "-A");
  git("commit", "-qm", "start");
  write("app.js", "export const x = 2;\n");
}

describe("bosun review", () => {
  it("a failing check fails the review (exit 1, no 'no findings'); recorded", async () => {
    const s = await startScenario(
      { rules: [{ reply: findings([]) }] },
      {
        global: { review: { checks: [{ name: "tests", command: "echo 1 failing; exit 1" }] } },
      },
    );
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      const result = await s.run(["review"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stdout, /check tests: FAILED \(exit 1\)/);
      assert.match(result.stdout, /review failed: tests failed/);
      assert.doesNotMatch(result.stdout, /no findings/);
      const { decisions } = s.latest();
      expectDecision(decisions, "review.check", "code", "failed");
      expectDecision(decisions, "review.verdict", "code", "failed");
    } finally {
      await s.close();
    }
  });

  it("a check that cannot run fails the review", async () => {
    const s = await startScenario(
      { rules: [{ reply: findings([]) }] },
      {
        global: { review: { checks: [{ name: "lint", command: "no-such-linter-here --all" }] } },
      },
    );
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      const result = await s.run(["review"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stdout, /check lint: COULD NOT RUN/);
      assert.doesNotMatch(result.stdout, /no findings/);
      expectDecision(s.latest().decisions, "review.check", "code", "not run");
    } finally {
      await s.close();
    }
  });

  it("a check the repository's config brings is not run unless the user's rules allow it: the review fails", async () => {
    const s = await startScenario(
      { rules: [{ reply: findings([]) }] },
      { config: { review: { checks: [{ name: "repo-tests", command: "touch pwned" }] } } },
    );
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      const result = await s.run(["review"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stdout, /check repo-tests: COULD NOT RUN/);
      assert.doesNotMatch(result.stdout, /no findings/);
      assert.equal(existsSync(join(s.ws.dir, "pwned")), false);
      const check = expectDecision(s.latest().decisions, "review.check", "code", "not run");
      assert.match(JSON.stringify(check.reasons), /a check the repository's config brings/);
    } finally {
      await s.close();
    }
  });

  it("passing checks and no findings: clean, exit 0", async () => {
    const s = await startScenario(
      { rules: [{ reply: findings([]) }] },
      {
        global: { review: { checks: [{ name: "tests", command: "true" }] } },
      },
    );
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      const result = await s.run(["review"]);
      assert.equal(result.code, 0, result.stderr + result.stdout);
      assert.match(result.stdout, /check tests: passed/);
      assert.match(result.stdout, /no findings \(1 checks passed\)/);
      expectDecision(s.latest().decisions, "review.check", "code", "passed");
      expectDecision(s.latest().decisions, "review.verdict", "code", "clean");
      // The reviewer saw the diff.
      const seen =
        s.server
          .request(1)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(seen, /export const x = 2/);
    } finally {
      await s.close();
    }
  });

  it("a new file git does not track yet is part of the diff; an ignored one is not", async () => {
    const s = await startScenario({ rules: [{ reply: findings([]) }] });
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      s.ws.write(".gitignore", "secret.env\n");
      s.ws.write("src/new-module.js", "export const fresh = 'brand new';\n");
      s.ws.write("secret.env", "TOKEN=ignored-by-git\n");
      const result = await s.run(["review"]);
      assert.equal(result.code, 0, result.stderr + result.stdout);
      const seen =
        s.server
          .request(1)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(seen, /\+\+\+ b\/src\/new-module\.js/);
      assert.match(seen, /brand new/);
      assert.doesNotMatch(seen, /ignored-by-git/);
    } finally {
      await s.close();
    }
  });

  it("a high finding: exit 1 with --fail-on high, 0 with --fail-on critical; the JSON shape", async () => {
    const high = findings([{ file: "app.js", line: 1, severity: "high", text: "x changed without a test" }]);
    const s = await startScenario({ rules: [{ reply: high }] });
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      const failing = await s.run(["review", "--fail-on", "high"]);
      assert.equal(failing.code, 1, failing.stderr);
      assert.match(failing.stdout, /HIGH app\.js:1: x changed without a test/);
      const passing = await s.run(["review", "--fail-on", "critical", "--format", "json"]);
      assert.equal(passing.code, 0, passing.stderr);
      const report = JSON.parse(passing.stdout);
      assert.equal(report.status, "findings");
      assert.equal(report.exitCode, 0);
      assert.equal(report.failOn, "critical");
      assert.deepEqual(report.checks, []);
      assert.deepEqual(report.findings, [
        { file: "app.js", line: 1, severity: "high", text: "x changed without a test" },
      ]);
      assert.equal(report.diff.what, "HEAD..work tree");
      const bad = await s.run(["review", "--fail-on", "severe"]);
      assert.equal(bad.code, 2);
    } finally {
      await s.close();
    }
  });

  it("the reviewer cannot edit: no edit tools are offered, a writing command is refused, the file stays", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: { toolCalls: [{ id: "w1", name: "shell", arguments: { command: "echo hacked > app.js" } }] },
        },
        { match: { request: 2 }, reply: findings([]) },
      ],
    });
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      const result = await s.run(["review", "--format", "json"]);
      assert.equal(readFileSync(join(s.ws.dir, "app.js"), "utf8"), "export const x = 2;\n");
      const seen =
        s.server
          .request(2)
          .normalized?.messages.map((m) => m.text)
          .join("\n") ?? "";
      assert.match(seen, /read-only|denied|refused/i);
      assert.equal(JSON.parse(result.stdout).status, "clean", result.stderr);
    } finally {
      await s.close();
    }
  });

  it("an empty diff: said so, exit 0, no model request", async () => {
    const s = await startScenario({ rules: [{ reply: findings([]) }] });
    try {
      commitAndChange(s.ws.dir, s.ws.write);
      s.ws.write("app.js", "export const x = 1;\n");
      const result = await s.run(["review"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /nothing to review: the diff \(HEAD\.\.work tree\) is empty/);
      assert.equal(s.server.requests.length, 0);
    } finally {
      await s.close();
    }
  });
});
