import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseMcpCommand, refuseWhileBusy } from "./mcp-command.js";

describe("/mcp", () => {
  it("alone shows the servers; reconnect takes one name; anything else says how it is used", () => {
    assert.deepEqual(parseMcpCommand(""), { kind: "status" });
    assert.deepEqual(parseMcpCommand(" reconnect  docs "), { kind: "reconnect", server: "docs" });
    assert.equal(parseMcpCommand("reconnect").kind, "usage");
    assert.equal(parseMcpCommand("restart docs").kind, "usage");
  });

  it("refuses a reconnect while a turn runs, never the status", () => {
    assert.match(refuseWhileBusy({ kind: "reconnect", server: "docs" }, true) ?? "", /not while a turn runs/);
    assert.equal(refuseWhileBusy({ kind: "reconnect", server: "docs" }, false), undefined);
    assert.equal(refuseWhileBusy({ kind: "status" }, true), undefined);
  });
});
