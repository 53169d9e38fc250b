import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { type Scenario, startScenario } from "../support/scenario.js";

const done = { reply: { text: "Done." } };

/** A one-pixel PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The user's config with the scripted model's catalog entry (images, window) as given. */
function withModelInfo(s: Scenario, info: Record<string, unknown>, extra: Record<string, unknown> = {}): void {
  const base = s.server.configFor("openai-compatible");
  s.setUserConfig({
    provider: { scripted: { ...base.provider.scripted, models: { "test-model": info } } },
    ...extra,
  });
}

describe("context: instruction files", () => {
  it("sends global, root and nearer AGENTS.md in order, CLAUDE.md only where no AGENTS.md is, and a subfolder's on read, once", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: { toolCalls: [{ id: "r1", name: "read", arguments: { path: "../../pkg/lib/a.txt" } }] },
        },
        {
          match: { request: 2 },
          reply: { toolCalls: [{ id: "r2", name: "read", arguments: { path: "../../pkg/lib/b.txt" } }] },
        },
        done,
      ],
    });
    try {
      writeFileSync(join(s.ws.home, "AGENTS.md"), "GLOBAL-RULE\n");
      s.ws.write("AGENTS.md", "ROOT-RULE\n");
      s.ws.write("app/CLAUDE.md", "APP-CLAUDE-RULE\n");
      s.ws.write("app/src/AGENTS.md", "SRC-RULE\n");
      s.ws.write("app/src/CLAUDE.md", "SRC-CLAUDE-IGNORED\n");
      s.ws.write("pkg/AGENTS.md", "PKG-RULE\n");
      s.ws.write("pkg/lib/a.txt", "a\n");
      s.ws.write("pkg/lib/b.txt", "b\n");
      const result = await s.ws.run(["run", "go"], { cwd: join(s.ws.dir, "app/src") });
      assert.equal(result.code, 0, result.stderr);

      const system = s.server.request(1).normalized?.system ?? "";
      const order = ["GLOBAL-RULE", "ROOT-RULE", "APP-CLAUDE-RULE", "SRC-RULE"].map((text) => system.indexOf(text));
      assert.ok(
        order.every((at, i) => at >= 0 && (i === 0 || at > (order[i - 1] as number))),
        `order ${order}: ${system}`,
      );
      assert.doesNotMatch(system, /SRC-CLAUDE-IGNORED|PKG-RULE/);

      // The read in pkg/lib brings pkg/AGENTS.md, riding on the read's result; the second read does not again.
      const second = s.server.request(2).normalized?.messages.at(-1)?.text ?? "";
      assert.match(second, /tool_result r1:[\s\S]*PKG-RULE/);
      const third = s.server.request(3).normalized?.messages ?? [];
      assert.equal(third.filter((m) => m.text.includes("PKG-RULE")).length, 1);
      assert.doesNotMatch(third.at(-1)?.text ?? "", /PKG-RULE/);

      const { decisions } = s.latest();
      expectDecision(decisions, "context.instructions", "code");
      const start = decisions.find((d) => d.seat === "context.instructions" && d.subject?.call === undefined);
      assert.equal(start?.holder, "code");
      assert.deepEqual(start?.answer, [
        join(s.ws.home, "AGENTS.md"),
        join(s.ws.dir, "AGENTS.md"),
        join(s.ws.dir, "app/CLAUDE.md"),
        join(s.ws.dir, "app/src/AGENTS.md"),
      ]);
      const nested = decisions.filter((d) => d.seat === "context.instructions" && d.subject?.call !== undefined);
      assert.equal(nested.length, 1);
      assert.deepEqual(nested[0]?.answer, [join(s.ws.dir, "pkg/AGENTS.md")]);
      assert.equal(nested[0]?.subject?.call, "r1");
    } finally {
      await s.close();
    }
  });

  it("claude_md false and instructions.files come from config; a missing file is listed, never fatal", async () => {
    const s = await startScenario(
      { rules: [done] },
      { config: { instructions: { claude_md: false, files: ["docs/*.md", "missing.md"] } } },
    );
    try {
      s.ws.write("CLAUDE.md", "CLAUDE-RULE\n");
      s.ws.write("docs/style.md", "STYLE-RULE\n");
      const result = await s.run(["run", "go"]);
      assert.equal(result.code, 0, result.stderr);
      const system = s.server.request(1).normalized?.system ?? "";
      assert.match(system, /STYLE-RULE/);
      assert.doesNotMatch(system, /CLAUDE-RULE/);
      const decision = expectDecision(s.latest().decisions, "context.instructions", "config");
      assert.deepEqual(decision.answer, [join(s.ws.dir, "docs/style.md")]);
      assert.ok(
        decision.reasons.some((r) => r.rule === "skipped" && /missing\.md/.test(`${r.detail} ${r.source}`)),
        JSON.stringify(decision.reasons),
      );
    } finally {
      await s.close();
    }
  });
});

describe("context: an agent's own prompt", () => {
  it("replaces the built-in text (here from a file), and the instructions still follow", async () => {
    const s = await startScenario(
      { rules: [done] },
      { config: { agent: { reviewer: { prompt: "{file:prompts/review.md}" } } } },
    );
    try {
      s.ws.write("prompts/review.md", "You review diffs and nothing else.\n");
      s.ws.write("AGENTS.md", "ROOT-RULE\n");
      const result = await s.run(["run", "--agent", "reviewer", "go"]);
      assert.equal(result.code, 0, result.stderr);
      const system = s.server.request(1).normalized?.system ?? "";
      assert.match(system, /^You review diffs and nothing else\.\n*\n\nInstructions from .*AGENTS\.md:\nROOT-RULE/);
      assert.doesNotMatch(system, /You are bosun/);
    } finally {
      await s.close();
    }
  });
});

describe("context: skills", () => {
  it("lists skills (the first root wins a name, the other is shadowed) and loads one with the skill tool", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: { toolCalls: [{ id: "k1", name: "skill", arguments: { name: "release" } }] },
        },
        done,
      ],
    });
    try {
      const skill = (root: string, name: string, description: string, body: string) => {
        mkdirSync(join(root, name), { recursive: true });
        writeFileSync(join(root, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
      };
      skill(join(s.ws.dir, ".bosun/skills"), "release", "Cut a release", "RELEASE-BODY");
      s.ws.write(".bosun/skills/release/checklist.md", "- tag\n");
      skill(join(s.ws.dir, ".claude/skills"), "release", "Shadowed release", "SHADOWED-BODY");
      skill(join(s.ws.home, "skills"), "triage", "Triage an issue", "TRIAGE-BODY");
      const result = await s.run(["run", "go"]);
      assert.equal(result.code, 0, result.stderr);

      const first = s.server.request(1).normalized;
      assert.match(first?.system ?? "", /- release: Cut a release/);
      assert.match(first?.system ?? "", /- triage: Triage an issue/);
      assert.doesNotMatch(first?.system ?? "", /Shadowed release|RELEASE-BODY/);
      assert.ok(first?.tools.includes("skill"));
      const loaded = s.server.request(2).normalized?.messages.at(-1)?.text ?? "";
      assert.match(loaded, /RELEASE-BODY/);
      assert.match(loaded, /checklist\.md/);
      assert.doesNotMatch(loaded, /name: release/);

      const { decisions } = s.latest();
      const skills = expectDecision(decisions, "context.skills", "code");
      assert.deepEqual(skills.answer, ["release", "triage"]);
      assert.ok(
        skills.reasons.some(
          (r) => r.rule === "shadowed" && (r.detail ?? "").includes(join(s.ws.dir, ".claude/skills/release/SKILL.md")),
        ),
      );
      const permission = decisions.find((d) => d.seat === "call.permission" && d.subject?.call === "k1");
      assert.equal(permission?.answer, "allow");
      assert.ok(permission?.reasons.some((r) => r.rule === "skill:release"));
    } finally {
      await s.close();
    }
  });
});

describe("context: images", () => {
  it("sends an attached image to a model that takes images, and a note instead to a text-only one", async () => {
    const s = await startScenario({ rules: [done] });
    try {
      writeFileSync(join(s.ws.dir, "shot.png"), PNG);
      withModelInfo(s, { images: true });
      let result = await s.run(["run", "-f", "shot.png", "look at this"]);
      assert.equal(result.code, 0, result.stderr);
      let last = s.server.request(1).normalized?.messages.at(-1)?.text ?? "";
      assert.match(last, /Image shot\.png:\n\[image_url\]/);

      withModelInfo(s, { images: false });
      result = await s.run(["run", "-f", "shot.png", "look again"]);
      assert.equal(result.code, 0, result.stderr);
      last = s.server.request(2).normalized?.messages.at(-1)?.text ?? "";
      assert.match(last, /\[image not sent: this model does not take images\]/);
      assert.doesNotMatch(last, /\[image_url\]/);
      const body = JSON.stringify(s.server.requests.at(-1)?.body);
      assert.doesNotMatch(body, /image_url|data:image/);
    } finally {
      await s.close();
    }
  });

  it("a read of an image file follows the results as an image", async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: { toolCalls: [{ id: "p1", name: "read", arguments: { path: "shot.png" } }] } },
        done,
      ],
    });
    try {
      writeFileSync(join(s.ws.dir, "shot.png"), PNG);
      withModelInfo(s, { images: true });
      const result = await s.run(["run", "see"]);
      assert.equal(result.code, 0, result.stderr);
      const messages = s.server.request(2).normalized?.messages ?? [];
      assert.match(messages.at(-2)?.text ?? "", /tool_result p1: Image shot\.png \(image\/png/);
      assert.match(messages.at(-1)?.text ?? "", /Image shot\.png from call p1:\n\[image_url\]/);
    } finally {
      await s.close();
    }
  });
});

describe("context: the environment", () => {
  it("is sent before the first message, and again only when it changed", async () => {
    const s = await startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: { toolCalls: [{ id: "l1", name: "list", arguments: {} }] },
        },
        {
          match: { request: 2 },
          reply: { toolCalls: [{ id: "w1", name: "write", arguments: { path: "new.txt", content: "x\n" } }] },
        },
        {
          match: { request: 3 },
          reply: { toolCalls: [{ id: "l2", name: "list", arguments: {} }] },
        },
        done,
      ],
    });
    try {
      // A clean tree to start from: the write is what makes it dirty.
      for (const args of [
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "start"],
      ]) {
        assert.equal(spawnSync("git", args, { cwd: s.ws.dir }).status, 0);
      }
      const result = await s.run(["run", "--auto", "go"]);
      assert.equal(result.code, 0, result.stderr);
      const first = s.server.request(1).normalized?.messages ?? [];
      assert.match(first.at(-2)?.text ?? "", /^\[bosun\] Environment:[\s\S]*- working directory: /);
      assert.equal(first.at(-1)?.text, "go");
      const count = (n: number) =>
        (s.server.request(n).normalized?.messages ?? []).filter((m) => m.text.includes("Environment:")).length;
      // The list changed nothing: not sent again. The write made the tree dirty: sent with its result.
      assert.equal(count(2), 1);
      assert.equal(count(3), 2);
      assert.match(s.server.request(3).normalized?.messages.at(-1)?.text ?? "", /tool_result w1:[\s\S]*uncommitted/);
      assert.equal(count(4), 2);
    } finally {
      await s.close();
    }
  });

  it("asks git for it again only after a call that may change the tree, not after a read-only one", async () => {
    const s = await startScenario({
      rules: [
        { match: { request: 1 }, reply: { toolCalls: [{ id: "l1", name: "list", arguments: {} }] } },
        { match: { request: 2 }, reply: { toolCalls: [{ id: "r1", name: "read", arguments: { path: "a.txt" } }] } },
        {
          match: { request: 3 },
          reply: { toolCalls: [{ id: "w1", name: "write", arguments: { path: "new.txt", content: "x\n" } }] },
        },
        { match: { request: 4 }, reply: { toolCalls: [{ id: "l2", name: "list", arguments: {} }] } },
        done,
      ],
    });
    try {
      s.ws.write("a.txt", "a\n");
      for (const args of [
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "start"],
      ]) {
        assert.equal(spawnSync("git", args, { cwd: s.ws.dir }).status, 0);
      }
      // A git that notes each `git status` bosun runs for the environment, then does the real thing.
      const realGit = spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
      const shims = join(s.ws.home, "shims");
      const log = join(s.ws.home, "git-status.log");
      mkdirSync(shims);
      writeFileSync(
        join(shims, "git"),
        `#!/bin/sh\ncase "$*" in *porcelain=v2*) echo status >> '${log}';; esac\nexec '${realGit}' "$@"\n`,
        { mode: 0o755 },
      );
      const result = await s.run(["run", "--auto", "go"], { env: { PATH: `${shims}:${process.env.PATH}` } });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 5);
      // Before step 1 (the turn's start) and before step 4 (after the write); not after the list or the read.
      const runs = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0;
      assert.equal(runs, 2);
      // What the model was told is still right: the write made the tree dirty, and it heard so.
      assert.match(s.server.request(4).normalized?.messages.at(-1)?.text ?? "", /tool_result w1:[\s\S]*uncommitted/);
    } finally {
      await s.close();
    }
  });
});
