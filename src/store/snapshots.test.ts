import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { restorePaths, shadowDir, takeSnapshot, treeChanges, treeDiff } from "./snapshots.js";

const base = mkdtempSync(join(tmpdir(), "bosun-snap-"));
after(() => rmSync(base, { recursive: true, force: true }));

function repo(): { dir: string; root: string } {
  const dir = mkdtempSync(join(base, "ws-"));
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return { dir, root: join(base, "shadow") };
}

const gitOf = (dir: string, ...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" });

describe("snapshots", () => {
  it("takes the work tree, honours .gitignore, and leaves the user's .git alone", async () => {
    const { dir, root } = repo();
    writeFileSync(join(dir, ".gitignore"), "build/\n*.log\n");
    writeFileSync(join(dir, "a.txt"), "one\n");
    writeFileSync(join(dir, "x.log"), "noise\n");
    mkdirSync(join(dir, "build"));
    writeFileSync(join(dir, "build", "out.js"), "built\n");
    const statusBefore = gitOf(dir, "status", "--porcelain");
    const shot = await takeSnapshot(dir, { maxFileBytes: 1000, timeoutMs: 10_000, root });
    assert.ok(shot.ok, JSON.stringify(shot));
    const listed = execFileSync("git", ["ls-tree", "-r", "--name-only", shot.tree], {
      cwd: dir,
      env: { ...process.env, GIT_DIR: shadowDir(dir, root) },
      encoding: "utf8",
    });
    assert.deepEqual(listed.trim().split("\n").sort(), [".gitignore", "a.txt"]);
    // The user's repository: no index written, no objects added, the same status.
    assert.equal(existsSync(join(dir, ".git", "index")), false);
    assert.equal(gitOf(dir, "count-objects").startsWith("0 objects"), true);
    assert.equal(gitOf(dir, "status", "--porcelain"), statusBefore);
    assert.ok(shadowDir(dir, root).startsWith(root));
  });

  it("leaves out and lists files over the size cap", async () => {
    const { dir, root } = repo();
    writeFileSync(join(dir, "small.txt"), "s");
    writeFileSync(join(dir, "big.bin"), Buffer.alloc(5000, 1));
    const shot = await takeSnapshot(dir, { maxFileBytes: 1000, timeoutMs: 10_000, root });
    assert.ok(shot.ok);
    assert.deepEqual(shot.leftOut, ["big.bin"]);
    // Never read into the shadow repository: its blob is not there.
    const blob = gitOf(dir, "hash-object", "big.bin").trim();
    const stored = spawnSync("git", ["cat-file", "-e", blob], {
      cwd: dir,
      env: { ...process.env, GIT_DIR: shadowDir(dir, root) },
    });
    assert.notEqual(stored.status, 0, "the big file's content was not stored");
    // A file that grows over the cap later is left out then too, not kept at its old content.
    writeFileSync(join(dir, "small.txt"), Buffer.alloc(5000, 2));
    const next = await takeSnapshot(dir, { maxFileBytes: 1000, timeoutMs: 10_000, root });
    assert.ok(next.ok);
    assert.deepEqual(next.leftOut, ["big.bin", "small.txt"]);
    assert.deepEqual(await treeChanges(dir, shot.tree, next.tree, { timeoutMs: 10_000, root }), [
      { path: "small.txt", status: "deleted" },
    ]);
  });

  it("restores paths byte for byte: modified and deleted files back, created ones removed", async () => {
    const { dir, root } = repo();
    const crlf = "line one\r\nline two\r\n";
    writeFileSync(join(dir, "crlf.txt"), crlf);
    writeFileSync(join(dir, "gone.txt"), "keep me\n");
    writeFileSync(join(dir, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    const opts = { maxFileBytes: 100_000, timeoutMs: 10_000, root };
    const before = await takeSnapshot(dir, opts);
    assert.ok(before.ok);
    writeFileSync(join(dir, "crlf.txt"), "changed\n");
    rmSync(join(dir, "gone.txt"));
    rmSync(join(dir, "run.sh"));
    mkdirSync(join(dir, "new"));
    writeFileSync(join(dir, "new", "made.txt"), "new\n");
    const afterShot = await takeSnapshot(dir, opts);
    assert.ok(afterShot.ok);
    const changes = await treeChanges(dir, before.tree, afterShot.tree, opts);
    assert.deepEqual(
      changes.map((c) => `${c.status} ${c.path}`).sort(),
      ["deleted gone.txt", "deleted run.sh", "modified crlf.txt", "added new/made.txt"].sort(),
    );
    assert.match(await treeDiff(dir, before.tree, afterShot.tree, opts), /-line one/);
    await restorePaths(
      dir,
      before.tree,
      changes.map((c) => c.path),
      opts,
    );
    assert.equal(readFileSync(join(dir, "crlf.txt"), "utf8"), crlf);
    assert.equal(readFileSync(join(dir, "gone.txt"), "utf8"), "keep me\n");
    assert.equal(existsSync(join(dir, "new")), false);
    assert.equal(statSync(join(dir, "run.sh")).mode & 0o111, 0o111, "the executable bit is back");
    // Only the work tree was written: the shadow index still holds the latest snapshot.
    const again = await takeSnapshot(dir, opts);
    assert.ok(again.ok);
    assert.equal(again.tree, before.tree);
  });

  it("waits for another session's snapshot holding the shadow index, within its deadline", async () => {
    const { dir, root } = repo();
    writeFileSync(join(dir, "a.txt"), "a\n");
    const opts = { maxFileBytes: 1000, timeoutMs: 10_000, root };
    assert.ok((await takeSnapshot(dir, opts)).ok);
    const lock = join(shadowDir(dir, root), "index.lock");
    writeFileSync(lock, "");
    setTimeout(() => rmSync(lock), 300);
    writeFileSync(join(dir, "b.txt"), "b\n");
    const shot = await takeSnapshot(dir, opts);
    assert.ok(shot.ok, JSON.stringify(shot));
    writeFileSync(lock, "");
    const stuck = await takeSnapshot(dir, { ...opts, timeoutMs: 400 });
    rmSync(lock);
    assert.equal(stuck.ok, false, "a lock that stays is a failure, not a wait without end");
  });

  it("fails as a result, not an exception, when git cannot run", async () => {
    const { dir, root } = repo();
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      const shot = await takeSnapshot(dir, { maxFileBytes: 1000, timeoutMs: 10_000, root: join(root, "nogit") });
      assert.equal(shot.ok, false);
    } finally {
      process.env.PATH = path;
    }
  });
});
