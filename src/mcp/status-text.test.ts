import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { statusText } from "./status-text.js";

describe("/mcp's block", () => {
  it("says how each server stands: its tools and hints, a failure's stderr, why one never started", () => {
    const text = statusText([
      {
        name: "docs",
        state: "connected",
        transport: "stdio docs-server",
        tools: [
          { name: "mcp__docs__search", annotations: { readOnlyHint: true, openWorldHint: true } },
          { name: "mcp__docs__wipe", annotations: { destructiveHint: true } },
          { name: "mcp__docs__read", refused: "read is the name of a built-in tool: refused" },
        ],
        stderr: [],
      },
      { name: "bad", state: "failed", transport: "stdio bad", tools: [], error: "Connection closed", stderr: ["boom"] },
      { name: "auth", state: "needs sign-in", transport: "http https://x.example/mcp", tools: [], stderr: [] },
      { name: "off", state: "disabled", tools: [], error: "mcp.off.enabled is false", stderr: [] },
      { name: "repo", state: "skipped", tools: [], error: "not started", stderr: [] },
      {
        name: "theirs",
        state: "needs trust",
        tools: [],
        error: "not run: nobody approved it (seat project.command)",
        approve: "/new asks again",
        stderr: [],
      },
    ]);
    assert.match(text, /^ {2}docs {2}connected · 3 tools \(stdio docs-server\)$/m);
    assert.match(text, /^ {4}search {2}read-only · open world$/m);
    assert.match(text, /^ {4}wipe {2}writes · destructive$/m);
    assert.match(text, /^ {4}read {2}no hints \(counts as writing\) · refused: read is the name/m);
    assert.match(text, /^ {2}bad {2}failed \(stdio bad\): Connection closed\n {4}stderr:\n {6}boom$/m);
    assert.match(text, /^ {2}auth {2}needs sign-in \(http https:\/\/x\.example\/mcp\): bosun mcp login auth, then/m);
    assert.match(text, /^ {2}off {2}disabled: mcp\.off\.enabled is false$/m);
    assert.match(text, /^ {2}repo {2}skipped: not started$/m);
    assert.match(
      text,
      /^ {2}theirs {2}needs trust: not run: nobody approved it \(seat project\.command\)\n {4}to let it run: \/new asks again$/m,
    );
  });

  it("says when no server is configured", () => {
    assert.match(statusText([]), /No MCP servers are configured/);
  });
});
