import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { claudeToolInput, claudeToolName, hookMatches } from "./hook-claude.js";

describe("Claude Code's view of a call (hook-claude)", () => {
  it("names bosun's tools as Claude Code does; MCP and other tools keep their names", () => {
    assert.deepEqual(
      ["shell", "read", "write", "edit", "grep", "glob", "list", "skill", "mcp__github__create_issue"].map(
        claudeToolName,
      ),
      ["Bash", "Read", "Write", "Edit", "Grep", "Glob", "LS", "skill", "mcp__github__create_issue"],
    );
  });

  it("gives the arguments under both names, paths absolute as Claude Code sends them", () => {
    assert.deepEqual(claudeToolInput("shell", { command: "ls", timeout_ms: 500, background: true }, "/w"), {
      command: "ls",
      timeout_ms: 500,
      background: true,
      timeout: 500,
      run_in_background: true,
    });
    assert.deepEqual(claudeToolInput("shell", { command: "ls" }, "/w"), { command: "ls" });
    assert.deepEqual(claudeToolInput("read", { path: "src/a.ts", offset: 3 }, "/w"), {
      path: "src/a.ts",
      offset: 3,
      file_path: "/w/src/a.ts",
    });
    assert.deepEqual(claudeToolInput("edit", { path: "/etc/x", old_string: "a", new_string: "b" }, "/w"), {
      path: "/etc/x",
      old_string: "a",
      new_string: "b",
      file_path: "/etc/x",
    });
    assert.equal(claudeToolInput("write", { path: "../out.txt", content: "" }, "/w/sub").file_path, "/w/out.txt");
    assert.deepEqual(claudeToolInput("grep", { pattern: "x", path: "src", include: "*.ts" }, "/w"), {
      pattern: "x",
      path: "/w/src",
      include: "*.ts",
      glob: "*.ts",
    });
    assert.deepEqual(claudeToolInput("glob", { pattern: "**/*.md" }, "/w"), { pattern: "**/*.md" });
    assert.deepEqual(claudeToolInput("list", { path: "." }, "/w"), { path: "/w" });
    assert.deepEqual(claudeToolInput("mcp__notes__write", { name: "a" }, "/w"), { name: "a" });
  });

  it("matches Claude Code's tool names beside bosun's", () => {
    assert.ok(hookMatches("Bash", "shell"));
    assert.ok(hookMatches("shell", "shell"));
    assert.ok(!hookMatches("bash", "shell"), "case-sensitive, as in Claude Code");
    assert.ok(hookMatches("LS", "list"));
    assert.ok(!hookMatches("Read", "grep"));
    assert.ok(!hookMatches("Bash", "mcp__shell__Bash_x"));
  });

  it("reads a Claude Code matcher string: alternatives, regular expressions, the empty matcher", () => {
    assert.ok(hookMatches("Edit|Write", "edit"));
    assert.ok(hookMatches("Edit|Write", "write"));
    assert.ok(!hookMatches("Edit|Write", "read"));
    assert.ok(hookMatches("Edit|MultiEdit|Write", "write"));
    assert.ok(hookMatches("mcp__github__.*", "mcp__github__create_issue"));
    assert.ok(!hookMatches("mcp__github__.*", "mcp__gitlab__create_issue"));
    assert.ok(hookMatches("mcp__.*__write.*", "mcp__notes__write_note"));
    assert.ok(hookMatches("(Read|Grep)", "grep"));
    assert.ok(hookMatches("", "anything"));
    assert.ok(!hookMatches("Read.", "read"), "a regular expression matches the whole name");
  });

  it("keeps bosun's own globs, and a pattern that is no regular expression is still one of them", () => {
    assert.ok(hookMatches("*", "mcp__a__b"));
    assert.ok(hookMatches("sh*", "shell"));
    assert.ok(hookMatches("mcp__github__*", "mcp__github__create_issue"));
    assert.ok(!hookMatches("mcp__github__*", "mcp__gitlab__x"));
    assert.ok(hookMatches("mcp__x__(", "mcp__x__("));
    assert.ok(!hookMatches("mcp__x__(", "mcp__x__y"));
    assert.ok(!hookMatches("sh", "shell"));
  });
});
