import assert from "node:assert/strict";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { put, tempFolder, toolContext } from "../../test/support/tools.js";
import { grepTool, renderGrep } from "./grep.js";

const temp = tempFolder("grep", "file");
/** A folder with .gitignore but no git repository: ripgrep must still respect it. */
let dir: string;
before(() => {
  dir = join(temp.path, "work");
  put(dir, "a.ts", "const alpha = 1;\nfunction beta() {}\nlet alphabet;\n");
  put(dir, "b.md", "alpha in docs\n");
  put(dir, "sub/c.ts", "beta\nalpha again\n");
  put(dir, ".hidden/h.ts", "alpha hidden\n");
  put(dir, ".gitignore", "ignored/\n*.log\n");
  put(dir, "ignored/i.ts", "alpha ignored\n");
  put(dir, "x.log", "alpha log\n");
  put(dir, "many.txt", "match\n".repeat(150));
});

describe("grep", () => {
  it("lists matches as path:line: text, sorted by path, respecting .gitignore without a repository", async () => {
    const result = await grepTool.execute({ pattern: "alpha" }, toolContext(dir));
    assert.equal(result.isError, undefined);
    assert.equal(
      result.output,
      [
        ".hidden/h.ts:1: alpha hidden",
        "a.ts:1: const alpha = 1;",
        "a.ts:3: let alphabet;",
        "b.md:1: alpha in docs",
        "sub/c.ts:2: alpha again",
      ].join("\n"),
    );
    assert.equal(result.summary, "grep /alpha/ → 5 matches in 4 files");
    assert.deepEqual(result.metadata, { matches: 5, files: 4, truncated: false });
  });

  it("takes a regex", async () => {
    const result = await grepTool.execute({ pattern: "^(beta|function)\\b" }, toolContext(dir));
    assert.equal(result.output, "a.ts:2: function beta() {}\nsub/c.ts:1: beta");
  });

  it("filters files with include", async () => {
    const result = await grepTool.execute({ pattern: "alpha", include: "*.md" }, toolContext(dir));
    assert.equal(result.output, "b.md:1: alpha in docs");
  });

  it("searches a folder or a file given by path, paths staying relative to cwd", async () => {
    const folder = await grepTool.execute({ pattern: "alpha", path: "sub" }, toolContext(dir));
    assert.equal(folder.output, "sub/c.ts:2: alpha again");
    const file = await grepTool.execute({ pattern: "alpha", path: "a.ts" }, toolContext(dir));
    assert.equal(file.output, "a.ts:1: const alpha = 1;\na.ts:3: let alphabet;");
    const absolute = await grepTool.execute({ pattern: "again", path: join(dir, "sub") }, toolContext(dir));
    assert.equal(absolute.output, "sub/c.ts:2: alpha again");
    const fromBelow = await grepTool.execute({ pattern: "docs", path: ".." }, toolContext(join(dir, "sub")));
    assert.equal(fromBelow.output, "../b.md:1: alpha in docs");
  });

  it("excludes .git but not other hidden files", async () => {
    const repo = join(temp.path, "repo");
    put(repo, ".git/config", "needle\n");
    put(repo, ".config/x", "needle\n");
    const result = await grepTool.execute({ pattern: "needle" }, toolContext(repo));
    assert.equal(result.output, ".config/x:1: needle");
  });

  it("reports no matches plainly", async () => {
    const result = await grepTool.execute({ pattern: "nothing-like-this" }, toolContext(dir));
    assert.equal(result.isError, undefined);
    assert.equal(result.output, "no matches");
    assert.equal(result.summary, "grep /nothing-like-this/ → no matches");
  });

  it("reports a bad regex as an error with ripgrep's message", async () => {
    const result = await grepTool.execute({ pattern: "a(" }, toolContext(dir));
    assert.equal(result.isError, true);
    assert.match(result.output, /regex parse error/);
  });

  it("reports a missing path as an error", async () => {
    const result = await grepTool.execute({ pattern: "a", path: "nope" }, toolContext(dir));
    assert.equal(result.isError, true);
    assert.equal(result.output, "path not found: nope");
  });

  it("bounds the results with a note", async () => {
    const result = await grepTool.execute({ pattern: "^match$" }, toolContext(dir));
    const lines = result.output.split("\n");
    assert.equal(lines.length, 101);
    assert.equal(lines[0], "many.txt:1: match");
    assert.equal(lines[99], "many.txt:100: match");
    assert.equal(lines[100], "[50 more matches not shown; narrow the pattern or path]");
    assert.deepEqual(result.metadata, { matches: 150, files: 1, truncated: true });
    const small = await grepTool.execute({ pattern: "alpha" }, toolContext(dir, { limits: { maxResults: 2 } }));
    assert.match(small.output, /\n\[3 more matches not shown; narrow the pattern or path\]$/);
  });

  it("cuts very long lines", async () => {
    const wide = join(temp.path, "wide");
    put(wide, "long.txt", `needle ${"y".repeat(2000)}\n`);
    const result = await grepTool.execute({ pattern: "needle" }, toolContext(wide));
    assert.ok(result.output.length < 700, `${result.output.length} characters`);
  });

  it("stops when the signal aborts", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await grepTool.execute({ pattern: "alpha" }, toolContext(dir, { signal: controller.signal }));
    assert.equal(result.isError, true);
    assert.equal(result.output, "cancelled");
  });

  it("shows partial results with ripgrep's warning when it exits 2", () => {
    const result = renderGrep(
      {
        matches: [{ path: "./a.ts", rest: "1:alpha" }],
        notes: [],
        stderr: "rg: secret: Permission denied (os error 13)\n",
        exitCode: 2,
        stopped: false,
        cancelled: false,
      },
      "grep /alpha/",
      dir,
      100,
    );
    assert.equal(result.isError, undefined);
    assert.equal(result.output, "a.ts:1: alpha\nwarning: rg: secret: Permission denied (os error 13)");
  });

  it("validates its input strictly", () => {
    assert.equal(grepTool.schema.safeParse({ pattern: "a", glob: "*.ts" }).success, false);
    assert.equal(grepTool.schema.safeParse({ pattern: "a", path: "src", include: "*.ts" }).success, true);
  });
});
