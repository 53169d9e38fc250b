import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Tool } from "../contracts/tools.js";
import { mayChangeFiles, snapshotRecord, type TurnSnapshots } from "./snapshot-step.js";

const tool = (name: string, kind: Tool["kind"], mcp?: Tool["mcp"]) => ({ name, kind, ...(mcp ? { mcp } : {}) }) as Tool;
const tools = [
  tool("read", "read"),
  tool("webfetch", "web"),
  tool("write", "edit"),
  tool("shell", "shell"),
  tool("task", "delegate"),
  tool("mcp__a__get", "mcp", { resource: "mcp:a/get", readOnly: true }),
  tool("mcp__a__put", "mcp", { resource: "mcp:a/put", readOnly: false }),
];
const call = (name: string, invalid = false) => ({ id: name, name, input: {}, ...(invalid ? { invalid } : {}) });

describe("undo's snapshots", () => {
  it("a step is snapshotted when any call may change files: not for reads, web, read-only MCP tools, or calls that cannot run", () => {
    assert.equal(mayChangeFiles([call("read"), call("webfetch"), call("mcp__a__get")], tools), false);
    assert.equal(mayChangeFiles([call("nope"), call("write", true)], tools), false);
    for (const name of ["write", "shell", "task", "mcp__a__put"])
      assert.equal(mayChangeFiles([call("read"), call(name)], tools), true, name);
  });

  it("why none is taken is recorded once; after a failed snapshot none is tried again this run", async () => {
    const off: TurnSnapshots = {
      unsuitable: "undo.enabled is false",
      noted: false,
      take: async () => ({ ok: false, error: "x" }),
    };
    assert.deepEqual(await snapshotRecord(off, 1, 1), { skipped: "undo.enabled is false", turn: 1 });
    assert.equal(await snapshotRecord(off, 2, 1), undefined);
    let tries = 0;
    const failing: TurnSnapshots = {
      noted: false,
      take: async () => {
        tries++;
        return { ok: false, error: "git timed out" };
      },
    };
    assert.deepEqual(await snapshotRecord(failing, 1, 1), { skipped: "the snapshot failed: git timed out", turn: 1 });
    assert.equal(await snapshotRecord(failing, 1, 2), undefined);
    assert.equal(tries, 1, "not tried again this run: each try could cost the whole timeout");
    const working: TurnSnapshots = { noted: false, take: async () => ({ ok: true, tree: "t", leftOut: [] }) };
    assert.deepEqual(await snapshotRecord(working, 1, "end"), { tree: "t", turn: 1, step: "end" });
  });
});
