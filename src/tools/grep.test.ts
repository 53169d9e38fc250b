import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { grepTool, renderGrep } from "./grep.js";
import { createBackgroundJobs } from "./jobs.js";
import type { FileTracker, ToolContext, ToolLimits } from "./types.js";

const files: FileTracker = {
  seen: () => {
    throw new Error("files is not used by grep");
  },
  staleReason: () => {
    throw new Error("files is not used by grep");
  },
};

function context(cwd: string, extra: { signal?: AbortSignal; limits?: Partial<ToolLimits> } = {}): ToolContext {
  return {
    cwd,
    signal: extra.signal ?? new AbortController().signal,
    callId: "call-1",
    files,
    jobs: createBackgroundJobs(),
    limits: { shellTimeoutMs: 120_000, shellMaxTimeoutMs: 600_000, maxResults: 100, ...extra.limits },
  };
}

function write(root: string, path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

let root: string;
/** A folder with .gitignore but no git repository: ripgrep must still respect it. */
let dir: string;
before(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-grep-")));
  dir = join(root, "work");
  write(dir, "a.ts", "const alpha = 1;\nfunction beta() {}\nlet alphabet;\n");
  write(dir, "b.md", "alpha in docs\n");
  write(dir, "sub/c.ts", "beta\nalpha again\n");
  write(dir, ".hidden/h.ts", "alpha hidden\n");
  write(dir, ".gitignore", "ignored/\n*.log\n");
  write(dir, "ignored/i.ts", "alpha ignored\n");
  write(dir, "x.log", "alpha log\n");
  write(dir, "many.txt", "match\n".repeat(150));
});
after(() => rmSync(root, { recursive: true, force: true }));

describe("grep", () => {
  it("lists matches as path:line: text, sorted by path, respecting .gitignore without a repository", async () => {
    const result = await grepTool.execute({ pattern: "alpha" }, context(dir));
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
    const result = await grepTool.execute({ pattern: "^(beta|function)\\b" }, context(dir));
    assert.equal(result.output, "a.ts:2: function beta() {}\nsub/c.ts:1: beta");
  });

  it("filters files with include", async () => {
    const result = await grepTool.execute({ pattern: "alpha", include: "*.md" }, context(dir));
    assert.equal(result.output, "b.md:1: alpha in docs");
  });

  it("searches a folder or a file given by path, paths staying relative to cwd", async () => {
    const folder = await grepTool.execute({ pattern: "alpha", path: "sub" }, context(dir));
    assert.equal(folder.output, "sub/c.ts:2: alpha again");
    const file = await grepTool.execute({ pattern: "alpha", path: "a.ts" }, context(dir));
    assert.equal(file.output, "a.ts:1: const alpha = 1;\na.ts:3: let alphabet;");
    const absolute = await grepTool.execute({ pattern: "again", path: join(dir, "sub") }, context(dir));
    assert.equal(absolute.output, "sub/c.ts:2: alpha again");
    const fromBelow = await grepTool.execute({ pattern: "docs", path: ".." }, context(join(dir, "sub")));
    assert.equal(fromBelow.output, "../b.md:1: alpha in docs");
  });

  it("excludes .git but not other hidden files", async () => {
    const repo = join(root, "repo");
    write(repo, ".git/config", "needle\n");
    write(repo, ".config/x", "needle\n");
    const result = await grepTool.execute({ pattern: "needle" }, context(repo));
    assert.equal(result.output, ".config/x:1: needle");
  });

  it("reports no matches plainly", async () => {
    const result = await grepTool.execute({ pattern: "nothing-like-this" }, context(dir));
    assert.equal(result.isError, undefined);
    assert.equal(result.output, "no matches");
    assert.equal(result.summary, "grep /nothing-like-this/ → no matches");
  });

  it("reports a bad regex as an error with ripgrep's message", async () => {
    const result = await grepTool.execute({ pattern: "a(" }, context(dir));
    assert.equal(result.isError, true);
    assert.match(result.output, /regex parse error/);
  });

  it("reports a missing path as an error", async () => {
    const result = await grepTool.execute({ pattern: "a", path: "nope" }, context(dir));
    assert.equal(result.isError, true);
    assert.equal(result.output, "path not found: nope");
  });

  it("bounds the results with a note", async () => {
    const result = await grepTool.execute({ pattern: "^match$" }, context(dir));
    const lines = result.output.split("\n");
    assert.equal(lines.length, 101);
    assert.equal(lines[0], "many.txt:1: match");
    assert.equal(lines[99], "many.txt:100: match");
    assert.equal(lines[100], "[50 more matches not shown; narrow the pattern or path]");
    assert.deepEqual(result.metadata, { matches: 150, files: 1, truncated: true });
    const small = await grepTool.execute({ pattern: "alpha" }, context(dir, { limits: { maxResults: 2 } }));
    assert.match(small.output, /\n\[3 more matches not shown; narrow the pattern or path\]$/);
  });

  it("cuts very long lines", async () => {
    const wide = join(root, "wide");
    write(wide, "long.txt", `needle ${"y".repeat(2000)}\n`);
    const result = await grepTool.execute({ pattern: "needle" }, context(wide));
    assert.ok(result.output.length < 700, `${result.output.length} characters`);
  });

  it("stops when the signal aborts", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await grepTool.execute({ pattern: "alpha" }, context(dir, { signal: controller.signal }));
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
