import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { tempFolder } from "../../test/support/tools.js";
import { commandNameOf, frontMatterKeys } from "./command-conventions.js";
import { commandPath, discoverCustomCommands } from "./custom-commands.js";
import { helpText, inputDecision } from "./slash.js";

const temp = tempFolder("conventions");

function workspace(files: Record<string, string>) {
  const root = join(temp.path, `w${Math.random().toString(36).slice(2)}`);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(root, { recursive: true });
  return { workspace: root, globalDir: join(root, "no-global") };
}

describe("frontMatterKeys", () => {
  it("maps Claude's description and model; lists argument-hint and allowed-tools as ignored, never read", () => {
    const keys = frontMatterKeys("claude", ["description", "argument-hint", "allowed-tools", "model", "agent"]);
    assert.deepEqual(keys.read, ["description", "model"]);
    assert.deepEqual(
      keys.ignored.map((i) => i.key),
      ["argument-hint", "allowed-tools", "agent"],
    );
    assert.match(keys.ignored[1]?.reason ?? "", /never grants tools/);
  });
  it("maps opencode's description, agent, model; subtask is ignored", () => {
    const keys = frontMatterKeys("opencode", ["description", "agent", "model", "subtask"]);
    assert.deepEqual(keys.read, ["description", "agent", "model"]);
    assert.deepEqual(
      keys.ignored.map((i) => i.key),
      ["subtask"],
    );
  });
  it("names a nested file a:b", () => {
    assert.equal(commandNameOf("a/b.md"), "a:b");
    assert.equal(commandNameOf("x.md"), "x");
  });
});

describe("discoverCustomCommands: other agents' folders", () => {
  it("finds .claude/commands with subfolders as a:b, .opencode/command(s); bosun's own wins a name, the rest listed as shadowed", () => {
    const where = workspace({
      ".bosun/commands/review.md": "bosun's review",
      ".claude/commands/review.md": "claude's review",
      ".claude/commands/git/commit.md":
        "---\ndescription: commit it\nargument-hint: [message]\nallowed-tools: Bash(git commit:*)\nmodel: claude-haiku\n---\nCommit $ARGUMENTS\n",
      ".opencode/command/test.md": "---\nagent: plan\nsubtask: true\n---\nTest it\n",
      ".opencode/commands/test.md": "the second opencode folder",
    });
    const set = discoverCustomCommands(where);
    const names = set.commands.map((c) => `${c.name} ${commandPath(c)}`);
    assert.deepEqual(names, [
      "review .bosun/commands/review.md",
      "git:commit .claude/commands/git/commit.md",
      "test .opencode/command/test.md",
    ]);
    const commit = set.commands[1];
    assert.equal(commit?.description, "commit it");
    assert.equal(commit?.model, "claude-haiku");
    assert.deepEqual(
      commit?.ignored?.map((i) => i.key),
      ["argument-hint", "allowed-tools"],
    );
    assert.equal(set.commands[2]?.agent, "plan");
    assert.deepEqual(
      set.shadowed.map(({ command, by }) => `${commandPath(command)} < ${commandPath(by)}`),
      [
        ".claude/commands/review.md < .bosun/commands/review.md",
        ".opencode/commands/test.md < .opencode/command/test.md",
      ],
    );
    const help = helpText(set.commands, [], set.shadowed, set.skipped);
    assert.match(help, /git:commit\s+commit it \(\.claude\/commands\/git\/commit\.md\)/);
    assert.match(help, /ignores allowed-tools: a command file never grants tools/);
    assert.match(help, /\.claude\/commands\/review\.md\) is shadowed by \.bosun\/commands\/review\.md/);
    // The ledger says what the file asked for and did not get.
    assert.ok(commit);
    const decision = inputDecision({ kind: "custom", command: commit, args: "" }, { shadowed: set.shadowed });
    assert.ok(
      decision?.reasons.some((r) => r.rule === "front matter key ignored" && /allowed-tools/.test(r.detail ?? "")),
    );
  });
  it("does not enter a linked subfolder (it may lead out of the workspace) nor read a linked file", () => {
    const outside = workspace({ "evil/steal.md": "outside", "secret.md": "secret" });
    const where = workspace({ ".claude/commands/ok.md": "fine" });
    symlinkSync(join(outside.workspace, "evil"), join(where.workspace, ".claude/commands/evil"));
    symlinkSync(join(outside.workspace, "secret.md"), join(where.workspace, ".claude/commands/secret.md"));
    const set = discoverCustomCommands(where);
    assert.deepEqual(
      set.commands.map((c) => c.name),
      ["ok"],
    );
    assert.ok(set.skipped.some((s) => s.file.endsWith("secret.md") && /a link/.test(s.reason)));
  });
});
