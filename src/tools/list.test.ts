import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempFolder, toolContext } from "../../test/support/tools.js";
import { listTool } from "./list.js";

const temp = tempFolder("list");

describe("list", () => {
  it("lists the workspace by default, folders first with a slash, skipping .git", async () => {
    mkdirSync(join(temp.path, ".git"));
    temp.put("b.txt");
    temp.put("a.txt");
    temp.put("zeta/x");
    temp.put("alpha/y");
    temp.put(".env");
    const result = await listTool.execute({}, toolContext(temp.path));
    assert.equal(result.isError, undefined);
    assert.equal(result.output, "alpha/\nzeta/\n.env\na.txt\nb.txt");
    assert.equal(result.summary, "list . (5 entries)");
  });

  it("leaves out gitignored entries and says how many", async () => {
    mkdirSync(join(temp.path, ".git"));
    temp.put(".gitignore", "*.log\nbuild/\n");
    temp.put("app.log");
    temp.put("build/out.js");
    temp.put("src/a.ts");
    temp.put("build.ts");
    const result = await listTool.execute({ path: "." }, toolContext(temp.path));
    assert.equal(result.output, "src/\n.gitignore\nbuild.ts\n(2 gitignored entries not shown)");
    assert.equal(result.metadata?.ignored, 2);
  });

  it("applies .gitignore files from the repository root down, deeper ones winning", async () => {
    mkdirSync(join(temp.path, ".git"));
    temp.put(".gitignore", "*.log\nsecret*\n");
    temp.put("pkg/sub/.gitignore", "!keep.log\n");
    temp.put("pkg/sub/keep.log");
    temp.put("pkg/sub/drop.log");
    temp.put("pkg/sub/secret.txt");
    temp.put("pkg/sub/code.ts");
    const ctx = toolContext(join(temp.path, "pkg"));
    const result = await listTool.execute({ path: "sub" }, ctx);
    assert.equal(result.output, ".gitignore\ncode.ts\nkeep.log\n(2 gitignored entries not shown)");
    assert.equal(result.summary, "list sub (3 entries)");
  });

  it("honours .git/info/exclude", async () => {
    temp.put(".git/info/exclude", "local/\n");
    temp.put("local/x");
    temp.put("kept.txt");
    const result = await listTool.execute({}, toolContext(temp.path));
    assert.equal(result.output, "kept.txt\n(1 gitignored entry not shown)");
  });

  it("shows everything in a folder that is itself gitignored, since it was asked for", async () => {
    mkdirSync(join(temp.path, ".git"));
    temp.put(".gitignore", "node_modules/\n");
    temp.put("node_modules/pkg/index.js");
    temp.put("node_modules/.bin");
    const result = await listTool.execute({ path: "node_modules" }, toolContext(temp.path));
    assert.equal(result.output, "pkg/\n.bin");
    assert.equal(result.metadata?.folderIgnored, true);
  });

  it("uses the folder's own .gitignore outside a repository", async () => {
    temp.put(".gitignore", "tmp\n");
    temp.put("tmp/x");
    temp.put("a.txt");
    const result = await listTool.execute({}, toolContext(temp.path));
    assert.equal(result.output, ".gitignore\na.txt\n(1 gitignored entry not shown)");
  });

  it("shows a symlink to a folder as a folder", async () => {
    temp.put("real/x");
    symlinkSync(join(temp.path, "real"), join(temp.path, "link"));
    const result = await listTool.execute({}, toolContext(temp.path));
    assert.equal(result.output, "link/\nreal/");
  });

  it("stops at maxResults and says how many more there are", async () => {
    for (const name of ["a", "b", "c", "d", "e"]) temp.put(`${name}.txt`);
    const result = await listTool.execute({}, toolContext(temp.path, { limits: { maxResults: 3 } }));
    assert.equal(result.output, "a.txt\nb.txt\nc.txt\n(2 more entries not shown; use glob to narrow)");
    assert.equal(result.summary, "list . (5 entries)");
    assert.equal(result.metadata?.shown, 3);
  });

  it("says when a folder is empty", async () => {
    mkdirSync(join(temp.path, "empty"));
    const result = await listTool.execute({ path: "empty" }, toolContext(temp.path));
    assert.equal(result.output, "(empty folder)");
  });

  it("refuses a file and points to read", async () => {
    temp.put("a.txt");
    const result = await listTool.execute({ path: "a.txt" }, toolContext(temp.path));
    assert.equal(result.isError, true);
    assert.equal(result.output, "a.txt is a file, not a folder; use read to see it.");
  });

  it("suggests similar folders when not found", async () => {
    mkdirSync(join(temp.path, "source"));
    const result = await listTool.execute({ path: "sourec" }, toolContext(temp.path));
    assert.equal(result.isError, true);
    assert.equal(result.output, "sourec does not exist. Similar: source");
  });
});
