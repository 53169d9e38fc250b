import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { translateClaudeHooks } from "./claude-settings.js";
import { parseJsonc } from "./jsonc.js";

const settings = `{
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash|Edit", "hooks": [{ "type": "command", "command": "./guard.sh", "timeout": 5 }] }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "npm test" }, { "type": "prompt", "prompt": "done?" }] }],
    "SessionEnd": [{ "hooks": [{ "type": "command", "command": "echo bye" }] }]
  }
}`;

describe("Claude Code's settings hooks as a layer", () => {
  it("reads command hooks into bosun's events: matcher → tools, timeout s → ms (Claude Code's 60 s default)", () => {
    const doc = parseJsonc(settings, "/r/.claude/settings.json");
    const layer = translateClaudeHooks("/r/.claude/settings.json", doc.data, doc.lineOf);
    assert.deepEqual(layer?.data, {
      hooks: {
        pre_tool: [{ command: "./guard.sh", tools: ["Bash|Edit"], timeout_ms: 5000 }],
        stop: [{ command: "npm test", timeout_ms: 60_000 }],
      },
    });
    assert.equal(layer?.lineOf(["hooks", "pre_tool", 0]), 5);
    assert.deepEqual(layer?.skipped, [
      'hooks.Stop[0].hooks[1]: only {"type": "command", "command": "…"} hooks run in bosun',
      "hooks.SessionEnd: bosun has no such event",
    ]);
  });

  it("a file without hooks is no layer", () => {
    assert.equal(
      translateClaudeHooks("f", { permissions: {} }, () => undefined),
      undefined,
    );
  });
});
