import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { delegateTools, toolMatches } from "./delegation.js";

describe("an agent's tools list", () => {
  it("matches names and * globs; edit names apply_patch too, not the other way round", () => {
    assert.ok(toolMatches("mcp__github__*", "mcp__github__get_issue"));
    assert.ok(!toolMatches("read", "grep"));
    assert.ok(toolMatches("edit", "apply_patch"));
    assert.ok(!toolMatches("apply_patch", "edit"));
  });

  it("a delegate whose agent lists edit keeps its parent's apply_patch", () => {
    const { tools } = delegateTools({
      parentTools: ["read", "apply_patch", "write", "shell"],
      agentTools: ["read", "edit"],
      mayDelegate: false,
    });
    assert.deepEqual(tools, ["read", "apply_patch"]);
  });
});
