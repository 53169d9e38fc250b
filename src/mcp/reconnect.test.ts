import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LoadedConfig } from "../config/load.js";
import type { Decision } from "../contracts/decisions.js";
import { decideReconnect, reconnectServer } from "./reconnect.js";
import type { McpServerSet } from "./server-set.js";

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

  it("a refused reconnect is recorded (seat mcp.connect, code, refused) and nothing is started", async () => {
    let restarted = 0;
    const set = {
      get: () => undefined,
      restart: async () => {
        restarted++;
        return undefined;
      },
    } as unknown as McpServerSet;
    const recorded: Decision[] = [];
    const io = { config, skip: new Set(["mcp.repo"]), record: (d: Decision) => recorded.push(d) };
    const outcome = await reconnectServer(set, io, "repo");
    assert.equal(outcome.ok, false);
    assert.equal(restarted, 0);
    assert.deepEqual(
      recorded.map((d) => [d.seat, d.holder, d.answer, d.subject?.server]),
      [["mcp.connect", "code", "refused", "repo"]],
    );
    assert.match(recorded[0]?.reasons.find((r) => r.decisive)?.detail ?? "", /not approved to run/);
  });
});
