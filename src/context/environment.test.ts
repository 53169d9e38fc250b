import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type Environment, readEnvironment, renderEnvironment, watchEnvironment } from "./environment.js";

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

  it("a watch asks git again only after a change may have happened: a changing call, the index or HEAD, a new day", async () => {
    const repo = realpathSync(mkdtempSync(join(tmpdir(), "bosun-env-watch-")));
    try {
      const inRepo = (...args: string[]) =>
        assert.equal(spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@e", ...args], { cwd: repo }).status, 0);
      inRepo("init", "-q", "-b", "main");
      writeFileSync(join(repo, "a.txt"), "a\n");
      inRepo("add", "-A");
      inRepo("commit", "-qm", "one");
      let reads = 0;
      const watch = watchEnvironment(repo, (cwd, now) => {
        reads++;
        return readEnvironment(cwd, now);
      });
      const day = new Date("2026-12-01T10:00:00Z");
      const first: Environment = await watch.read(day);
      assert.equal(reads, 1);
      assert.equal(first.dirty, false);
      // Nothing that could change the tree happened (a read-only call ran): the answer is kept.
      assert.deepEqual(await watch.read(day), first);
      assert.equal(reads, 1);
      // A call that may change the tree ran: git is asked again, and sees the change.
      writeFileSync(join(repo, "a.txt"), "b\n");
      watch.mayHaveChanged();
      assert.equal((await watch.read(day)).dirty, true);
      assert.equal(reads, 2);
      await watch.read(day);
      assert.equal(reads, 2);
      // The index changed (a commit made outside bosun): asked again, without being told.
      inRepo("commit", "-qam", "two");
      assert.equal((await watch.read(day)).dirty, false);
      assert.equal(reads, 3);
      // HEAD moved (a checkout): asked again.
      inRepo("checkout", "-q", "-b", "other");
      assert.equal((await watch.read(day)).branch, "other");
      assert.equal(reads, 4);
      // A new day.
      assert.equal((await watch.read(new Date("2026-12-02T10:00:00Z"))).date, "2026-12-02");
      assert.equal(reads, 5);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
