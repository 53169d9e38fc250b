import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempFolder, toolContext } from "../../test/support/tools.js";
import { editTool } from "./edit.js";
import { createFileTracker } from "./file-tracker.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

const temp = tempFolder("write");

/** A context in `cwd` (the temporary folder by default) with a fresh file tracker. */
const context = (cwd = temp.path) => toolContext(cwd, { files: createFileTracker() });

describe("write", () => {
  it("creates a file and its parent folders without a prior read", async () => {
    const ctx = context();
    const result = await writeTool.execute({ path: "a/b/c.txt", content: "one\ntwo\n" }, ctx);
    assert.equal(result.isError, undefined);
    assert.equal(readFileSync(join(temp.path, "a/b/c.txt"), "utf8"), "one\ntwo\n");
    assert.equal(result.output, "Created a/b/c.txt (2 lines).");
    assert.equal(result.summary, "write a/b/c.txt (created, 2 lines)");
    assert.deepEqual(result.metadata, {
      path: join(temp.path, "a/b/c.txt"),
      created: true,
      added: 2,
      removed: 0,
      bytes: 8,
    });
    assert.equal(ctx.files.staleReason(join(temp.path, "a/b/c.txt")), undefined);
  });

  it("overwrites a file it has read and says what changed", async () => {
    temp.put("a.txt", "one\ntwo\nthree\n");
    const ctx = context();
    await readTool.execute({ path: "a.txt" }, ctx);
    const result = await writeTool.execute({ path: "a.txt", content: "one\n2\n3\nthree\n" }, ctx);
    assert.equal(result.isError, undefined);
    assert.equal(result.output, "Overwrote a.txt (+2 -1 lines).");
    assert.equal(result.summary, "write a.txt (+2 -1)");
    assert.equal(
      result.detail,
      "--- a.txt\n+++ a.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n+3\n three",
      "a person expanding the call sees the diff",
    );
    assert.equal(result.metadata?.created, false);
    assert.equal(readFileSync(join(temp.path, "a.txt"), "utf8"), "one\n2\n3\nthree\n");
  });

  it("refuses to overwrite a file it has not read", async () => {
    temp.put("a.txt", "precious\n");
    const result = await writeTool.execute({ path: "a.txt", content: "clobbered\n" }, context());
    assert.equal(result.isError, true);
    assert.equal(result.output, "Not written: you have not read a.txt in this session; read it first.");
    assert.equal(readFileSync(join(temp.path, "a.txt"), "utf8"), "precious\n");
  });

  it("refuses to overwrite a file that changed since it was read", async () => {
    temp.put("a.txt", "v1\n");
    const ctx = context();
    await readTool.execute({ path: "a.txt" }, ctx);
    temp.put("a.txt", "v2 by someone else\n");
    const result = await writeTool.execute({ path: "a.txt", content: "mine\n" }, ctx);
    assert.equal(result.isError, true);
    assert.match(
      result.output,
      /^Not written: a\.txt changed on disk since you last read it \(at .+\); read it again\.$/,
    );
    assert.equal(readFileSync(join(temp.path, "a.txt"), "utf8"), "v2 by someone else\n");
  });

  it("counts its own write as seen, so an edit may follow", async () => {
    const ctx = context();
    await writeTool.execute({ path: "a.txt", content: "hello\n" }, ctx);
    const again = await writeTool.execute({ path: "a.txt", content: "hello again\n" }, ctx);
    assert.equal(again.isError, undefined);
    const edit = await editTool.execute({ path: "a.txt", old_string: "again", new_string: "there" }, ctx);
    assert.equal(edit.isError, undefined);
    assert.equal(readFileSync(join(temp.path, "a.txt"), "utf8"), "hello there\n");
  });

  it("says when the content is unchanged", async () => {
    temp.put("a.txt", "same\n");
    const ctx = context();
    await readTool.execute({ path: "a.txt" }, ctx);
    const result = await writeTool.execute({ path: "a.txt", content: "same\n" }, ctx);
    assert.equal(result.isError, undefined);
    assert.equal(result.summary, "write a.txt (unchanged)");
  });

  it("refuses a folder path", async () => {
    mkdirSync(join(temp.path, "dir"));
    const result = await writeTool.execute({ path: "dir", content: "x" }, context());
    assert.equal(result.isError, true);
    assert.equal(result.output, "dir is a folder; give a file path.");
  });

  it("reports a write that fails as an error result", async () => {
    temp.put("file", "x");
    const result = await writeTool.execute({ path: "file/under/a-file.txt", content: "x" }, context());
    assert.equal(result.isError, true);
    assert.match(result.output, /^Cannot write file\/under\/a-file\.txt: /);
  });

  it("validates its arguments strictly", () => {
    assert.equal(writeTool.schema.safeParse({ path: "a", content: "b" }).success, true);
    assert.equal(writeTool.schema.safeParse({ path: "a", content: "b", extra: 1 }).success, false);
    assert.equal(writeTool.schema.safeParse({ path: "a" }).success, false);
  });
});
