import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { commitThroughEditor } from "./commit-editor.js";
import type { PlannedFile } from "./plan.js";

const file = (target: string, before: string, after: string, existed = true): PlannedFile => ({
  letter: existed ? "M" : "A",
  shown: target,
  absolute: target,
  before,
  after,
  steps: [
    {
      op: "write",
      target,
      content: after,
      ...(existed ? { previous: { data: Buffer.from(before), mode: 0o644 } } : {}),
    },
  ],
});

/** An editor's buffers that refuse writes to `refuse`. */
function buffers(initial: Record<string, string>, refuse: string) {
  const held = new Map(Object.entries(initial));
  const write = async (path: string, content: string) => {
    if (path === refuse) throw new Error("the buffer is read-only");
    held.set(path, content);
  };
  return { held, write };
}

describe("a patch's writes through the editor", () => {
  it("all of them, in order", async () => {
    const editor = buffers({ "/w/a": "a1", "/w/b": "b1" }, "");
    const result = await commitThroughEditor(
      [file("/w/a", "a1", "a2"), file("/w/b", "b1", "b2")],
      editor.write,
      new AbortController().signal,
    );
    assert.deepEqual(result, { ok: true });
    assert.deepEqual(Object.fromEntries(editor.held), { "/w/a": "a2", "/w/b": "b2" });
  });

  it("a later write refused: the buffers changed get their text back; an added file that cannot be taken back is said", async () => {
    const editor = buffers({ "/w/a": "a1", "/w/c": "c1" }, "/w/c");
    const result = await commitThroughEditor(
      [file("/w/a", "a1", "a2"), file("/w/new", "", "n", false), file("/w/c", "c1", "c2")],
      editor.write,
      new AbortController().signal,
    );
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.failed.target, "/w/c");
    assert.match(String(result.error), /read-only/);
    assert.equal(editor.held.get("/w/a"), "a1", "put back");
    assert.deepEqual(
      result.notRestored.map((n) => [n.target, String(n.error)]),
      [["/w/new", "Error: the editor has no way to remove a file this patch added"]],
    );
  });
});
