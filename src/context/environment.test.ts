import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readEnvironment, renderEnvironment } from "./environment.js";

describe("environment", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "bosun-env-")));
  after(() => rmSync(root, { recursive: true, force: true }));
  const git = (...args: string[]) =>
    assert.equal(spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...args], { cwd: root }).status, 0);

  it("outside a repository: no branch, no work tree state", async () => {
    const plain = realpathSync(mkdtempSync(join(tmpdir(), "bosun-env-plain-")));
    try {
      const env = await readEnvironment(plain, new Date("2026-12-01T10:00:00Z"));
      assert.deepEqual(env, { date: "2026-12-01", cwd: plain, platform: process.platform });
      assert.match(renderEnvironment(env), /repository root: none/);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it("in a repository: the branch, and whether the tree is dirty, as it changes", async () => {
    git("init", "-q", "-b", "trunk");
    writeFileSync(join(root, "a.txt"), "a\n");
    git("add", "-A");
    git("commit", "-qm", "one");
    const clean = await readEnvironment(root);
    assert.equal(clean.repository, root);
    assert.equal(clean.branch, "trunk");
    assert.equal(clean.dirty, false);
    writeFileSync(join(root, "a.txt"), "b\n");
    const dirty = await readEnvironment(root);
    assert.equal(dirty.dirty, true);
    assert.notEqual(renderEnvironment(dirty), renderEnvironment(clean));
    assert.match(renderEnvironment(dirty), /- git branch: trunk\n- work tree: has uncommitted changes$/);
    git("checkout", "-q", "--detach");
    assert.match((await readEnvironment(root)).branch ?? "", /^detached at [0-9a-f]+$/);
  });
});
