import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { editTool } from "./edit.js";
import { createFileTracker } from "./file-tracker.js";
import { readTool } from "./read.js";
import type { BackgroundJobs, FileTracker, ToolContext } from "./types.js";
import { writeTool } from "./write.js";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "bosun-write-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function makeContext(cwd: string, files: FileTracker = createFileTracker(), maxResults = 100): ToolContext {
  const jobs = new Proxy({} as BackgroundJobs, {
    get() {
      throw new Error("jobs must not be used by this tool");
    },
  });
  return {
    cwd,
    signal: new AbortController().signal,
    callId: "call-1",
    files,
    jobs,
    limits: { shellTimeoutMs: 120_000, shellMaxTimeoutMs: 600_000, maxResults },
  };
}

function put(path: string, content: string): string {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
  return full;
}

describe("write", () => {
  it("creates a file and its parent folders without a prior read", async () => {
    const ctx = makeContext(root);
    const result = await writeTool.execute({ path: "a/b/c.txt", content: "one\ntwo\n" }, ctx);
    assert.equal(result.isError, undefined);
    assert.equal(readFileSync(join(root, "a/b/c.txt"), "utf8"), "one\ntwo\n");
    assert.equal(result.output, "Created a/b/c.txt (2 lines).");
    assert.equal(result.summary, "write a/b/c.txt (created, 2 lines)");
    assert.deepEqual(result.metadata, { path: join(root, "a/b/c.txt"), created: true, added: 2, removed: 0, bytes: 8 });
    assert.equal(ctx.files.staleReason(join(root, "a/b/c.txt")), undefined);
  });

  it("overwrites a file it has read and says what changed", async () => {
    put("a.txt", "one\ntwo\nthree\n");
    const ctx = makeContext(root);
    await readTool.execute({ path: "a.txt" }, ctx);
    const result = await writeTool.execute({ path: "a.txt", content: "one\n2\n3\nthree\n" }, ctx);
    assert.equal(result.isError, undefined);
    assert.equal(result.output, "Overwrote a.txt (+2 -1 lines).");
    assert.equal(result.summary, "write a.txt (+2 -1)");
    assert.equal(result.metadata?.created, false);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "one\n2\n3\nthree\n");
  });

  it("refuses to overwrite a file it has not read", async () => {
    put("a.txt", "precious\n");
    const result = await writeTool.execute({ path: "a.txt", content: "clobbered\n" }, makeContext(root));
    assert.equal(result.isError, true);
    assert.equal(result.output, "Not written: you have not read a.txt in this session; read it first.");
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "precious\n");
  });

  it("refuses to overwrite a file that changed since it was read", async () => {
    put("a.txt", "v1\n");
    const ctx = makeContext(root);
    await readTool.execute({ path: "a.txt" }, ctx);
    put("a.txt", "v2 by someone else\n");
    const result = await writeTool.execute({ path: "a.txt", content: "mine\n" }, ctx);
    assert.equal(result.isError, true);
    assert.match(
      result.output,
      /^Not written: a\.txt changed on disk since you last read it \(at .+\); read it again\.$/,
    );
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "v2 by someone else\n");
  });

  it("counts its own write as seen, so an edit may follow", async () => {
    const ctx = makeContext(root);
    await writeTool.execute({ path: "a.txt", content: "hello\n" }, ctx);
    const again = await writeTool.execute({ path: "a.txt", content: "hello again\n" }, ctx);
    assert.equal(again.isError, undefined);
    const edit = await editTool.execute({ path: "a.txt", old_string: "again", new_string: "there" }, ctx);
    assert.equal(edit.isError, undefined);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "hello there\n");
  });

  it("says when the content is unchanged", async () => {
    put("a.txt", "same\n");
    const ctx = makeContext(root);
    await readTool.execute({ path: "a.txt" }, ctx);
    const result = await writeTool.execute({ path: "a.txt", content: "same\n" }, ctx);
    assert.equal(result.isError, undefined);
    assert.equal(result.summary, "write a.txt (unchanged)");
  });

  it("refuses a folder path", async () => {
    mkdirSync(join(root, "dir"));
    const result = await writeTool.execute({ path: "dir", content: "x" }, makeContext(root));
    assert.equal(result.isError, true);
    assert.equal(result.output, "dir is a folder; give a file path.");
  });

  it("reports a write that fails as an error result", async () => {
    put("file", "x");
    const result = await writeTool.execute({ path: "file/under/a-file.txt", content: "x" }, makeContext(root));
    assert.equal(result.isError, true);
    assert.match(result.output, /^Cannot write file\/under\/a-file\.txt: /);
  });

  it("validates its arguments strictly", () => {
    assert.equal(writeTool.schema.safeParse({ path: "a", content: "b" }).success, true);
    assert.equal(writeTool.schema.safeParse({ path: "a", content: "b", extra: 1 }).success, false);
    assert.equal(writeTool.schema.safeParse({ path: "a" }).success, false);
  });
});
