import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { put, tempFolder, toolContext } from "../../test/support/tools.js";
import type { ToolLimits } from "../contracts/tools.js";
import { globTool } from "./glob.js";

let clock = Date.parse("2024-01-01T00:00:00Z") / 1000;
/** Writes a file with a modification time later than every file written before it. */
function write(root: string, path: string, content = ""): void {
  const full = put(root, path, content);
  clock += 60;
  utimesSync(full, clock, clock);
}

async function glob(cwd: string, pattern: string, path?: string, limits?: Partial<ToolLimits>): Promise<string[]> {
  const result = await globTool.execute(
    path === undefined ? { pattern } : { pattern, path },
    toolContext(cwd, { limits }),
  );
  assert.equal(result.isError, undefined, result.output);
  return result.output.split("\n");
}

const temp = tempFolder("glob", "file");
let repo: string;
before(() => {
  repo = join(temp.path, "repo");
  mkdirSync(repo);
  spawnSync("git", ["init", "-q", repo], { stdio: "ignore" });
  write(repo, ".gitignore", "dist/\n*.log\nnode_modules\n!keep.log\n");
  write(repo, ".git/info/exclude", "secret.ts\n");
  write(repo, "src/a.ts");
  write(repo, "src/sub/.gitignore", "gen.ts\n");
  write(repo, "src/sub/gen.ts");
  write(repo, "src/sub/keep.ts");
  write(repo, "src/deep/c.ts");
  write(repo, "src/b.ts");
  write(repo, "secret.ts");
  write(repo, "dist/out.js");
  write(repo, "x.log");
  write(repo, "keep.log");
  write(repo, "node_modules/pkg/index.js");
  write(repo, "lib/node_modules/inner/index.js");
  write(repo, ".github/workflows/ci.yml");
  write(repo, "main.js");
});

describe("glob", () => {
  it("lists matching files newest first, respecting nested .gitignore files and info/exclude", async () => {
    const result = await globTool.execute({ pattern: "**/*.ts" }, toolContext(repo));
    assert.equal(result.output, ["src/b.ts", "src/deep/c.ts", "src/sub/keep.ts", "src/a.ts"].join("\n"));
    assert.equal(result.summary, "glob **/*.ts → 4 files");
    assert.deepEqual(result.metadata, { files: 4, truncated: false });
  });

  it("orders by modification time, not by name", async () => {
    const dir = join(temp.path, "order");
    write(dir, "z.txt");
    write(dir, "a.txt");
    write(dir, "m.txt");
    assert.deepEqual(await glob(dir, "*.txt"), ["m.txt", "a.txt", "z.txt"]);
  });

  it("honours negations and skips ignored folders", async () => {
    assert.deepEqual(await glob(repo, "**/*.log"), ["keep.log"]);
    assert.deepEqual(await glob(repo, "**/*.js"), ["main.js"]);
  });

  it("includes hidden files but never .git unless named", async () => {
    assert.deepEqual(await glob(repo, "**/*.yml"), [".github/workflows/ci.yml"]);
    const all = await glob(repo, "**/*");
    assert.ok(!all.some((path) => path.startsWith(".git/")), all.join(", "));
    assert.ok(all.includes(".gitignore"));
    assert.deepEqual(await glob(repo, ".git/info/*"), [".git/info/exclude"]);
  });

  it("searches node_modules and ignored folders the pattern names", async () => {
    assert.deepEqual(await glob(repo, "node_modules/**/*.js"), ["node_modules/pkg/index.js"]);
    assert.deepEqual(await glob(repo, "**/node_modules/**/*.js"), [
      "lib/node_modules/inner/index.js",
      "node_modules/pkg/index.js",
    ]);
    assert.deepEqual(await glob(repo, "dist/*.js"), ["dist/out.js"]);
  });

  it("searches under path, with paths relative to cwd", async () => {
    assert.deepEqual(await glob(repo, "*.ts", "src/deep"), ["src/deep/c.ts"]);
    assert.deepEqual(await glob(repo, "**/*.ts", "src/sub"), ["src/sub/keep.ts"]);
    assert.deepEqual(await glob(join(repo, "src"), "*.js", "../dist"), ["../dist/out.js"]);
    assert.deepEqual(await glob(join(repo, "src"), "**/*.ts", ".."), ["b.ts", "deep/c.ts", "sub/keep.ts", "a.ts"]);
  });

  it("applies .gitignore outside a repository too", async () => {
    const dir = join(temp.path, "plain");
    write(dir, ".gitignore", "build/\n");
    write(dir, "build/x.txt");
    write(dir, "y.txt");
    assert.deepEqual(await glob(dir, "**/*.txt"), ["y.txt"]);
  });

  it("bounds the results with a note", async () => {
    const dir = join(temp.path, "many");
    for (let i = 0; i < 120; i++) write(dir, `f${i}.txt`);
    const lines = await glob(dir, "*.txt");
    assert.equal(lines.length, 101);
    assert.equal(lines[0], "f119.txt");
    assert.equal(lines[100], "[20 more files not shown; narrow the pattern or path]");
    const result = await globTool.execute({ pattern: "*.txt" }, toolContext(dir, { limits: { maxResults: 5 } }));
    assert.match(result.output, /\n\[115 more files not shown; narrow the pattern or path\]$/);
    assert.deepEqual(result.metadata, { files: 120, truncated: true });
  });

  it("reports no match plainly and a bad path as an error", async () => {
    const none = await globTool.execute({ pattern: "**/*.nothing" }, toolContext(repo));
    assert.equal(none.isError, undefined);
    assert.equal(none.output, "no files match");
    const missing = await globTool.execute({ pattern: "*", path: "nope" }, toolContext(repo));
    assert.equal(missing.isError, true);
    assert.equal(missing.output, "path not found: nope");
    const file = await globTool.execute({ pattern: "*", path: "main.js" }, toolContext(repo));
    assert.equal(file.isError, true);
    assert.equal(file.output, "not a folder: main.js");
  });

  it("stops when the signal aborts", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await globTool.execute({ pattern: "**/*" }, toolContext(repo, { signal: controller.signal }));
    assert.equal(result.isError, true);
    assert.equal(result.output, "cancelled");
  });

  it("validates its input strictly", () => {
    assert.equal(globTool.schema.safeParse({ pattern: "*.ts", cwd: "x" }).success, false);
    assert.equal(globTool.schema.safeParse({ pattern: "*.ts", path: "src" }).success, true);
  });
});
