import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { checkFor } from "../../test/support/read-check.js";
import { DEFAULTS } from "../config/defaults.js";
import { importPaths, resolveImport } from "./instruction-imports.js";
import { instructionsDecision, loadInstructions } from "./instructions.js";

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "bosun-imports-"));
  dirs.push(root);
  for (const dir of ["global", "repo", "cache", "home"]) mkdirSync(join(root, dir), { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

function load(base: string) {
  const repo = join(base, "repo");
  return loadInstructions({
    globalDir: join(base, "global"),
    repoRoot: repo,
    cwd: repo,
    claudeMd: true,
    extra: [],
    cacheDir: join(base, "cache"),
    home: join(base, "home"),
    check: checkFor(repo).check,
    fetchTimeoutMs: DEFAULTS.instructions.fetch_timeout_ms,
  });
}

describe("importPaths", () => {
  it("finds @relative and @~/ imports on their own line or inline, each once, without the sentence's punctuation", () => {
    const text = "@docs/style.md\nSee @./notes.md, and (@~/my-rules.md).\nAgain @docs/style.md\n";
    assert.deepEqual(importPaths(text), ["docs/style.md", "./notes.md", "~/my-rules.md"]);
  });
  it("skips code spans, fenced blocks, e-mail addresses and @mentions", () => {
    const text = [
      "Run `npm i @types/node.ts` first.",
      "```",
      "@inside/fence.md",
      "```",
      "~~~md",
      "@also/inside.md",
      "~~~",
      "Mail me at me@example.com, ask @alice.",
      "@after/fence.md",
    ].join("\n");
    assert.deepEqual(importPaths(text), ["after/fence.md"]);
  });
  it("resolves from the importing file's folder, ~/ from home", () => {
    assert.equal(resolveImport("b/c.md", "/r/a/CLAUDE.md", "/h"), "/r/a/b/c.md");
    assert.equal(resolveImport("../x.md", "/r/a/CLAUDE.md", "/h"), "/r/x.md");
    assert.equal(resolveImport("~/x.md", "/r/CLAUDE.md", "/h"), "/h/x.md");
  });
});

describe("loadInstructions: @imports", () => {
  it("adds each import after its importer, records who imported it, cuts a cycle and stops at depth 5", async () => {
    const base = tree({
      "repo/CLAUDE.md": "root @docs/a.md",
      "repo/docs/a.md": "A @b.md and back to @../CLAUDE.md",
      "repo/docs/b.md": "B @c.md",
      "repo/docs/c.md": "C @d.md",
      "repo/docs/d.md": "D @e.md",
      "repo/docs/e.md": "E @f.md",
      "repo/docs/f.md": "F, too deep",
    });
    const repo = join(base, "repo");
    const result = await load(base);
    assert.deepEqual(
      result.files.map((f) => [f.path.slice(repo.length + 1), f.origin, f.importedBy?.slice(repo.length + 1)]),
      [
        ["CLAUDE.md", "project", undefined],
        ["docs/a.md", "import", "CLAUDE.md"],
        ["docs/b.md", "import", "docs/a.md"],
        ["docs/c.md", "import", "docs/b.md"],
        ["docs/d.md", "import", "docs/c.md"],
        ["docs/e.md", "import", "docs/d.md"],
      ],
    );
    const reasons = result.skipped.map((s) => s.reason);
    assert.ok(
      reasons.some((r) => /^@\.\.\/CLAUDE\.md imported by .*a\.md: a cycle/.test(r)),
      reasons.join("\n"),
    );
    assert.ok(reasons.some((r) => /^@f\.md imported by .*e\.md: imports are followed 5 deep/.test(r)));
    const decision = instructionsDecision(result, {});
    assert.ok(decision.reasons.some((r) => /docs\/a\.md: import by .*CLAUDE\.md/.test(r.detail ?? "")));
  });
  it("refuses an import that leaves the repository through a link, a protected file, and a ~/ file from a repository's file", async () => {
    const base = tree({
      "repo/AGENTS.md": "@linked/out.md\n@.env\n@~/private.md\n@missing.md",
      "repo/.env": "SECRET=1",
      "outside/out.md": "OUTSIDE-CONTENT",
      "home/private.md": "PRIVATE",
    });
    symlinkSync(join(base, "outside"), join(base, "repo", "linked"));
    const result = await load(base);
    assert.deepEqual(
      result.files.map((f) => f.content),
      ["@linked/out.md\n@.env\n@~/private.md\n@missing.md"],
    );
    assert.equal(result.skipped.length, 4, result.skipped.map((s) => s.reason).join("\n"));
    for (const skip of result.skipped) assert.match(skip.reason, /imported by .*AGENTS\.md: /);
  });
  it("the global AGENTS.md (the user's own) may import from home", async () => {
    const base = tree({ "global/AGENTS.md": "@~/mine.md", "home/mine.md": "MINE" });
    const result = await load(base);
    assert.deepEqual(
      result.files.map((f) => f.content),
      ["@~/mine.md", "MINE"],
    );
  });
});
