import assert from "node:assert/strict";
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { discoverRecipes, findRecipe } from "./recipe-files.js";

function places() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-recipes-")));
  const workspace = join(root, "repo");
  const globalDir = join(root, "home");
  mkdirSync(join(workspace, ".bosun", "recipes"), { recursive: true });
  mkdirSync(join(globalDir, "recipes"), { recursive: true });
  return { root, workspace, globalDir, cwd: workspace, done: () => rmSync(root, { recursive: true, force: true }) };
}

const RECIPE = "title: T\nprompt: p\n";

test("names are file stems; the repository's wins over the person's, which is listed as shadowed", () => {
  const p = places();
  try {
    writeFileSync(join(p.workspace, ".bosun", "recipes", "fix.yaml"), RECIPE);
    writeFileSync(join(p.workspace, ".bosun", "recipes", "fix.json"), '{"title":"J","prompt":"p"}');
    writeFileSync(join(p.globalDir, "recipes", "fix.yml"), RECIPE);
    writeFileSync(join(p.globalDir, "recipes", "mine.yml"), RECIPE);
    writeFileSync(join(p.globalDir, "recipes", "notes.txt"), "not a recipe");
    const set = discoverRecipes(p);
    assert.deepEqual(
      set.recipes.map((r) => [r.name, r.scope, r.shown]),
      [
        ["fix", "project", ".bosun/recipes/fix.yaml"],
        ["mine", "global", join(p.globalDir, "recipes", "mine.yml")],
      ],
    );
    assert.equal(set.shadowed.length, 2);
    const found = findRecipe("fix", p);
    assert.equal(found.fromRepository, true);
    assert.equal(findRecipe("mine", p).fromRepository, false);
  } finally {
    p.done();
  }
});

test("a name never becomes a path: ../ is refused, a link or hard link in the repository's folder is not read", () => {
  const p = places();
  try {
    writeFileSync(join(p.root, "outside.yaml"), RECIPE);
    assert.throws(() => findRecipe("..%2Foutside", p), /not a recipe name/);
    symlinkSync(join(p.root, "outside.yaml"), join(p.workspace, ".bosun", "recipes", "linked.yaml"));
    assert.throws(() => findRecipe("linked", p), /refused: a link/);
    linkSync(join(p.root, "outside.yaml"), join(p.workspace, ".bosun", "recipes", "hard.yaml"));
    assert.throws(() => findRecipe("hard", p), /hard links/);
    // A path outside the workspace is the person's own file; inside it, the repository's.
    assert.equal(findRecipe(join(p.root, "outside.yaml"), p).fromRepository, false);
    writeFileSync(join(p.workspace, "task.yaml"), RECIPE);
    assert.equal(findRecipe("task.yaml", p).fromRepository, true);
  } finally {
    p.done();
  }
});

test("a repository's recipes folder linked out of the workspace is left out, with why", () => {
  const p = places();
  try {
    rmSync(join(p.workspace, ".bosun", "recipes"), { recursive: true });
    mkdirSync(join(p.root, "elsewhere"));
    writeFileSync(join(p.root, "elsewhere", "x.yaml"), RECIPE);
    symlinkSync(join(p.root, "elsewhere"), join(p.workspace, ".bosun", "recipes"));
    const set = discoverRecipes(p);
    assert.equal(set.recipes.length, 0);
    assert.match(set.skipped[0]?.reason ?? "", /outside the workspace/);
    assert.throws(() => findRecipe("x", p), /no recipe "x"/);
  } finally {
    p.done();
  }
});
