import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createFileTracker } from "./file-tracker.js";
import { listTool } from "./list.js";
import type { BackgroundJobs, FileTracker, ToolContext } from "./types.js";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "bosun-list-"));
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

function put(path: string, content = ""): string {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
  return full;
}

describe("list", () => {
  it("lists the workspace by default, folders first with a slash, skipping .git", async () => {
    mkdirSync(join(root, ".git"));
    put("b.txt");
    put("a.txt");
    put("zeta/x");
    put("alpha/y");
    put(".env");
    const result = await listTool.execute({}, makeContext(root));
    assert.equal(result.isError, undefined);
    assert.equal(result.output, "alpha/\nzeta/\n.env\na.txt\nb.txt");
    assert.equal(result.summary, "list . (5 entries)");
  });

  it("leaves out gitignored entries and says how many", async () => {
    mkdirSync(join(root, ".git"));
    put(".gitignore", "*.log\nbuild/\n");
    put("app.log");
    put("build/out.js");
    put("src/a.ts");
    put("build.ts");
    const result = await listTool.execute({ path: "." }, makeContext(root));
    assert.equal(result.output, "src/\n.gitignore\nbuild.ts\n(2 gitignored entries not shown)");
    assert.equal(result.metadata?.ignored, 2);
  });

  it("applies .gitignore files from the repository root down, deeper ones winning", async () => {
    mkdirSync(join(root, ".git"));
    put(".gitignore", "*.log\nsecret*\n");
    put("pkg/sub/.gitignore", "!keep.log\n");
    put("pkg/sub/keep.log");
    put("pkg/sub/drop.log");
    put("pkg/sub/secret.txt");
    put("pkg/sub/code.ts");
    const ctx = makeContext(join(root, "pkg"));
    const result = await listTool.execute({ path: "sub" }, ctx);
    assert.equal(result.output, ".gitignore\ncode.ts\nkeep.log\n(2 gitignored entries not shown)");
    assert.equal(result.summary, "list sub (3 entries)");
  });

  it("honours .git/info/exclude", async () => {
    mkdirSync(join(root, ".git", "info"), { recursive: true });
    writeFileSync(join(root, ".git", "info", "exclude"), "local/\n");
    put("local/x");
    put("kept.txt");
    const result = await listTool.execute({}, makeContext(root));
    assert.equal(result.output, "kept.txt\n(1 gitignored entry not shown)");
  });

  it("shows everything in a folder that is itself gitignored, since it was asked for", async () => {
    mkdirSync(join(root, ".git"));
    put(".gitignore", "node_modules/\n");
    put("node_modules/pkg/index.js");
    put("node_modules/.bin");
    const result = await listTool.execute({ path: "node_modules" }, makeContext(root));
    assert.equal(result.output, "pkg/\n.bin");
    assert.equal(result.metadata?.folderIgnored, true);
  });

  it("uses the folder's own .gitignore outside a repository", async () => {
    put(".gitignore", "tmp\n");
    put("tmp/x");
    put("a.txt");
    const result = await listTool.execute({}, makeContext(root));
    assert.equal(result.output, ".gitignore\na.txt\n(1 gitignored entry not shown)");
  });

  it("shows a symlink to a folder as a folder", async () => {
    put("real/x");
    symlinkSync(join(root, "real"), join(root, "link"));
    const result = await listTool.execute({}, makeContext(root));
    assert.equal(result.output, "link/\nreal/");
  });

  it("stops at maxResults and says how many more there are", async () => {
    for (const name of ["a", "b", "c", "d", "e"]) put(`${name}.txt`);
    const result = await listTool.execute({}, makeContext(root, createFileTracker(), 3));
    assert.equal(result.output, "a.txt\nb.txt\nc.txt\n(2 more entries not shown; use glob to narrow)");
    assert.equal(result.summary, "list . (5 entries)");
    assert.equal(result.metadata?.shown, 3);
  });

  it("says when a folder is empty", async () => {
    mkdirSync(join(root, "empty"));
    const result = await listTool.execute({ path: "empty" }, makeContext(root));
    assert.equal(result.output, "(empty folder)");
  });

  it("refuses a file and points to read", async () => {
    put("a.txt");
    const result = await listTool.execute({ path: "a.txt" }, makeContext(root));
    assert.equal(result.isError, true);
    assert.equal(result.output, "a.txt is a file, not a folder; use read to see it.");
  });

  it("suggests similar folders when not found", async () => {
    mkdirSync(join(root, "source"));
    const result = await listTool.execute({ path: "sourec" }, makeContext(root));
    assert.equal(result.isError, true);
    assert.equal(result.output, "sourec does not exist. Similar: source");
  });
});
