import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rulesFromConfig } from "../permission/rules/rules.js";
import { builtinTools } from "../tools/registry.js";
import { skillTool } from "../tools/skill.js";
import { BOSUN_TOOLS, mapClaude, mapOpencode } from "./agent-formats.js";

describe("agent files of other tools, mapped", () => {
  it("BOSUN_TOOLS names every built-in tool, skill, task and every MCP tool", () => {
    const skill = skillTool({ skills: [] } as never, (() => undefined) as never).name;
    const names = [...builtinTools().map((tool) => tool.name), skill, "task", "question", "mcp__*"];
    assert.deepEqual([...BOSUN_TOOLS].sort(), names.sort());
  });

  it("Claude Code: name, description, tools as a comma list of Claude's names, model inherit/alias/provider", () => {
    const mapped = mapClaude({
      name: "code-reviewer",
      description: "Reviews code",
      tools: "Read, Grep, Glob, LS, Bash, Edit, MultiEdit, Write, WebFetch, mcp__github__get_issue",
      model: "inherit",
      color: "blue",
    });
    assert.equal(mapped.name, "code-reviewer");
    assert.deepEqual(mapped.entry, {
      description: "Reviews code",
      tools: ["read", "grep", "glob", "list", "shell", "edit", "write", "webfetch", "mcp__github__get_issue"],
    });
    assert.deepEqual(mapped.skipped, ["color: not a bosun setting, ignored"]);
    assert.deepEqual(mapped.from.get("tools"), ["tools"]);
  });

  it("Claude Code: an alias model is no model, said why; provider/model is kept; an invalid name is not used", () => {
    const alias = mapClaude({ model: "sonnet", name: "../etc" });
    assert.deepEqual(alias.entry, {});
    assert.equal(alias.name, undefined);
    assert.deepEqual(alias.skipped, [
      "model: sonnet is a Claude Code alias, not provider/model: the parent's model is used",
      "name: not a valid agent name (letters, digits, - and _), the file's name is used",
    ]);
    assert.deepEqual(mapClaude({ model: "anthropic/claude-opus-4" }).entry, { model: "anthropic/claude-opus-4" });
    assert.match(mapClaude({ model: "claude-opus-4" }).skipped[0] ?? "", /not provider\/model/);
  });

  it("Claude Code: permissionMode plan is read-only; a loosening mode is never read; disallowedTools narrows", () => {
    assert.deepEqual(mapClaude({ permissionMode: "plan" }).entry, { read_only: true });
    const loose = mapClaude({ permissionMode: "bypassPermissions" });
    assert.deepEqual(loose.entry, {});
    assert.match(loose.skipped[0] ?? "", /permissionMode: bypassPermissions is not read/);
    const narrowed = mapClaude({ disallowedTools: "Bash, Write, mcp__github__create_issue" });
    assert.deepEqual(narrowed.entry.tools, [
      "read",
      "list",
      "glob",
      "grep",
      "edit",
      "apply_patch",
      "shell_output",
      "shell_kill",
      "todo",
      "webfetch",
      "websearch",
      "skill",
      "task",
      "question",
      "mcp__*",
    ]);
    // Kept from Edit is kept from apply_patch, the same change in another format.
    assert.ok(!(mapClaude({ disallowedTools: "Edit" }).entry.tools as string[]).includes("apply_patch"));
    const opencode = mapOpencode({ tools: { edit: false } });
    assert.ok(!("disabled" in opencode) && !(opencode.entry.tools as string[]).includes("apply_patch"));
    assert.deepEqual(narrowed.entry.permission, { mcp: { "github/create_issue": "deny" } });
    // Listed after the list it narrows, or before: the same.
    const both = mapClaude({ disallowedTools: ["Bash"], tools: "Read, Bash" });
    assert.deepEqual(both.entry.tools, ["read"]);
  });

  it("Claude Code: a bad value is skipped and listed, never fatal", () => {
    const mapped = mapClaude({ description: 42, tools: { Read: true } });
    assert.deepEqual(mapped.entry, {});
    assert.deepEqual(mapped.skipped, [
      "description: not a valid description, left out",
      "tools: not a list of tool names, left out",
    ]);
  });

  it("opencode: mode is its agent kind, never a permission mode; tools → the allowed subset; steps; the rest listed", () => {
    const mapped = mapOpencode({
      description: "Writes docs",
      mode: "subagent",
      model: "anthropic/claude-sonnet-4-5",
      temperature: 0.1,
      maxSteps: 9,
      tools: { write: false, bash: false, webfetch: false, read: true },
    });
    assert.ok(!("disabled" in mapped));
    if ("disabled" in mapped) return;
    assert.deepEqual(mapped.entry, {
      description: "Writes docs",
      model: "anthropic/claude-sonnet-4-5",
      max_steps: 9,
      tools: [
        "read",
        "list",
        "glob",
        "grep",
        "edit",
        "apply_patch",
        "todo",
        "websearch",
        "skill",
        "task",
        "question",
        "mcp__*",
      ],
    });
    assert.equal((mapped.entry as Record<string, unknown>).mode, undefined);
    assert.deepEqual(mapped.skipped, [
      "mode: subagent is opencode's agent kind (primary, subagent, all), not a permission mode: ignored",
      "temperature: not a bosun setting, ignored",
    ]);
    assert.deepEqual(mapOpencode({ disable: true }), { disabled: true });
  });

  it("opencode: permission → bosun rules, in the order written, the last match deciding", () => {
    const mapped = mapOpencode({
      permission: {
        "*": "ask",
        edit: { "docs/**": "allow", "../x": "deny" },
        bash: { "git *": "allow", "git push *": "deny" },
        webfetch: "deny",
        doom_loop: "ask",
        task: { "*": "deny", reviewer: "allow" },
      },
    });
    if ("disabled" in mapped) throw new Error("not disabled");
    assert.deepEqual(mapped.entry.permission, {
      read: "ask",
      edit: { "*": "ask", "docs/**": "allow" },
      shell: { "*": "ask", "git *": "allow", "git push *": "deny" },
      external_directory: "ask",
      web: "deny",
      delegate: { "*": "deny", reviewer: "allow" },
      mcp: "ask",
      skill: "ask",
      question: "ask",
      job: "ask",
      todo: "ask",
    });
    assert.deepEqual(mapped.skipped, [
      "permission.edit.../x: a .. path, which never matches, left out",
      "permission.doom_loop: no bosun action of that name, ignored",
    ]);
    assert.deepEqual(mapped.from.get("permission.shell"), ["permission", "*"]);
    // What bosun's own rule reader accepts: a foreign file never stops a run.
    assert.doesNotThrow(() => rulesFromConfig(mapped.entry.permission, { layer: "agent", keyPath: ["permission"] }));
  });

  it("opencode: permission patterns bosun would refuse are left out, never passed on", () => {
    const mapped = mapOpencode({
      permission: {
        bash: { "12": "allow", "": "deny", "rm *": "maybe", ls: "allow", "*": "ask" },
        webfetch: { "https://x/*": "allow" },
      },
    });
    if ("disabled" in mapped) throw new Error("not disabled");
    // "12" sorts first in a JS object; the catch-all after ls silences it (it never decided in opencode either).
    assert.deepEqual(mapped.entry.permission, { shell: "ask" });
    assert.equal(mapped.skipped.length, 4, mapped.skipped.join("\n"));
    assert.ok(mapped.skipped.some((s) => /webfetch: URL patterns do not map/.test(s)));
    assert.doesNotThrow(() => rulesFromConfig(mapped.entry.permission, { layer: "agent", keyPath: ["permission"] }));
    const all = mapOpencode({ permission: "deny" });
    if ("disabled" in all) throw new Error("not disabled");
    assert.equal((all.entry.permission as Record<string, string>).shell, "deny");
  });
});
