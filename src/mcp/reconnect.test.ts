import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LoadedConfig } from "../config/load.js";
import { decideReconnect } from "./reconnect.js";

const config = { config: { mcp: { docs: { command: "docs" }, repo: { command: "repo" } } } } as unknown as LoadedConfig;

describe("/mcp reconnect", () => {
  it("starts again a server that was started (connected or failed)", () => {
    assert.equal(decideReconnect(config, new Set(), "docs", true), undefined);
  });

  it("never goes around project.command, nor starts a disabled or unknown one", () => {
    assert.match(decideReconnect(config, new Set(["mcp.repo"]), "repo", false) ?? "", /not approved.*project\.command/);
    assert.match(decideReconnect(config, new Set(), "docs", false) ?? "", /disabled/);
    assert.match(decideReconnect(config, new Set(), "nope", false) ?? "", /no MCP server is named nope/);
    // Left out of the config whole by an untrusted repository: it needs trust, it is not unknown.
    const leftOut = new Map([["refs", "its args reads {env:HOME}, and the repository's config is not trusted"]]);
    assert.match(
      decideReconnect(config, new Set(), "refs", false, leftOut) ?? "",
      /^MCP server refs needs trust: its args/,
    );
  });
});
