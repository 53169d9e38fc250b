import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempFolder } from "../../test/support/tools.js";
import { OutputFolder, removeExpired, sessionFolder, startupCleanup } from "./saved-output.js";

const temp = tempFolder("saved-output");
const DAY = 24 * 60 * 60 * 1000;

/** Writes `<root>/<session>/<name>` with `bytes` bytes, last written `days` ago. */
function saved(root: string, session: string, name: string, bytes: number, days: number): string {
  mkdirSync(join(root, session), { recursive: true });
  const file = join(root, session, name);
  writeFileSync(file, "x".repeat(bytes));
  const at = new Date(Date.now() - days * DAY);
  utimesSync(file, at, at);
  return file;
}

describe("saved outputs", () => {
  it("a session's folder is one name inside the root, whatever the id says", () => {
    const root = join(temp.path, "overflow");
    assert.equal(sessionFolder(root, "ses_01J8ABC"), join(root, "ses_01J8ABC"));
    for (const bad of ["", ".", "..", "../escape", "a/b", "/etc", "a\\b", "a\0b"]) {
      assert.throws(() => sessionFolder(root, bad), /cannot name a folder inside/, JSON.stringify(bad));
    }
    assert.throws(() => new OutputFolder(root, "../../x", 100), /cannot name a folder inside/);
  });

  it("prepares owner-only folders, narrowing one made wider", () => {
    const root = join(temp.path, "overflow");
    mkdirSync(join(root, "ses_1"), { recursive: true, mode: 0o755 });
    new OutputFolder(root, "ses_1", 100).prepare();
    assert.equal(statSync(root).mode & 0o777, 0o700);
    assert.equal(statSync(join(root, "ses_1")).mode & 0o777, 0o700);
  });

  it("makes room by deleting the oldest files of any session, never the one being written", () => {
    const root = join(temp.path, "overflow");
    const oldest = saved(root, "ses_a", "1.txt", 40, 3);
    const writing = saved(root, "ses_b", "2.txt", 40, 2);
    const newer = saved(root, "ses_a", "3.txt", 40, 1);
    const folder = new OutputFolder(root, "ses_b", 100);
    assert.equal(folder.makeRoom(10, writing), 10, "120 + 10 > 100: the oldest other file goes");
    assert.equal(existsSync(oldest), false);
    assert.equal(existsSync(newer), true);
    assert.equal(folder.makeRoom(10, writing, 15), 15, "wanted more than needed, and it fits");
    assert.equal(folder.makeRoom(70, writing), 60, "nothing but the file being written is left: 60 fit");
    assert.equal(existsSync(newer), false);
    assert.equal(existsSync(writing), true);
  });

  it("deletes files older than the age at start-up, and the folders left empty; a missing root is nothing", () => {
    const root = join(temp.path, "overflow");
    assert.deepEqual(removeExpired(join(temp.path, "missing"), 7), { files: 0, bytes: 0 });
    saved(root, "ses_old", "a.txt", 10, 8);
    saved(root, "ses_old", ".b.txt.1-2.bosun-tmp", 5, 9);
    saved(root, "ses_mixed", "c.txt", 20, 10);
    const young = saved(root, "ses_mixed", "d.txt", 30, 6);
    assert.deepEqual(removeExpired(root, 7), { files: 3, bytes: 35 });
    assert.deepEqual(readdirSync(root), ["ses_mixed"]);
    assert.equal(existsSync(young), true);
  });

  it("records storage.cleanup only when something was deleted, naming the age and the folder", () => {
    const root = join(temp.path, "overflow");
    saved(root, "ses_young", "a.txt", 10, 1);
    assert.equal(startupCleanup(root, 7), undefined);
    saved(root, "ses_old", "b.txt", 12, 3);
    const decision = startupCleanup(root, 2, "/home/me/.config/bosun/bosun.json:4");
    assert.equal(decision?.seat, "storage.cleanup");
    assert.equal(decision?.holder, "config");
    assert.deepEqual(decision?.answer, { files: 1, bytes: 12 });
    assert.deepEqual(decision?.reasons, [
      {
        rule: "storage.output_max_age_days",
        detail: `saved outputs in ${root} last written more than 2 days ago are deleted at start-up: 1 file, 12 bytes`,
        key: "storage.output_max_age_days",
        source: "/home/me/.config/bosun/bosun.json:4",
        decisive: true,
      },
    ]);
  });
});
