import assert from "node:assert/strict";
import { statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempFolder } from "../../test/support/tools.js";
import { createFileTracker } from "./file-tracker.js";

const temp = tempFolder("tracker");

describe("createFileTracker", () => {
  it("asks for a read of a file it has never seen", () => {
    const file = temp.put("a.txt", "hello\n");
    const tracker = createFileTracker();
    assert.equal(tracker.staleReason(file), `you have not read ${file} in this session; read it first`);
  });

  it("is satisfied while the file is as it was seen", () => {
    const file = temp.put("a.txt", "hello\n");
    const tracker = createFileTracker();
    tracker.seen(file);
    assert.equal(tracker.staleReason(file), undefined);
  });

  it("says when and that a file changed on disk", () => {
    const file = temp.put("a.txt", "hello\n");
    const tracker = createFileTracker({ now: () => Date.UTC(2025, 0, 2, 3, 4, 5) });
    tracker.seen(file);
    writeFileSync(file, "hello, world\n");
    assert.equal(
      tracker.staleReason(file),
      `${file} changed on disk since you last read it (at 2025-01-02T03:04:05.000Z); read it again`,
    );
  });

  it("catches a same-size change even when the modification time is put back", () => {
    const file = temp.put("a.txt", "aaaa\n");
    const before = statSync(file);
    const tracker = createFileTracker();
    tracker.seen(file);
    writeFileSync(file, "bbbb\n");
    utimesSync(file, before.atime, before.mtime);
    assert.match(tracker.staleReason(file) ?? "", /changed on disk/);
  });

  it("does not call a touched but unchanged file stale", () => {
    const file = temp.put("a.txt", "same\n");
    const tracker = createFileTracker();
    tracker.seen(file);
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
    assert.equal(tracker.staleReason(file), undefined);
  });

  it("calls a deleted file changed", () => {
    const file = temp.put("a.txt", "x\n");
    const tracker = createFileTracker();
    tracker.seen(file);
    unlinkSync(file);
    assert.match(tracker.staleReason(file) ?? "", /changed on disk/);
  });

  it("shows paths relative to cwd when given one", () => {
    const file = temp.put("a.txt", "x\n");
    const tracker = createFileTracker({ cwd: temp.path });
    assert.equal(tracker.staleReason(file), "you have not read a.txt in this session; read it first");
  });

  it("records nothing for a path that is not a file", () => {
    const tracker = createFileTracker();
    tracker.seen(join(temp.path, "missing.txt"));
    tracker.seen(temp.path);
    assert.match(tracker.staleReason(join(temp.path, "missing.txt")) ?? "", /have not read/);
  });

  it("text seen through an editor's buffer is compared with the buffer, not the disk", () => {
    const file = temp.put("buffered.txt", "disk\n");
    const tracker = createFileTracker();
    // Before any read, the cheap check (no buffer at hand) still asks for one.
    assert.match(tracker.staleReason(file, null) ?? "", /have not read/);
    tracker.seen(file, "buffer\n");
    assert.equal(tracker.staleReason(file, "buffer\n"), undefined);
    assert.equal(tracker.staleReason(file, null), undefined);
    assert.match(tracker.staleReason(file, "buffer, changed\n") ?? "", /changed in the editor since you last read it/);
    // The disk differs from what was seen: a disk check calls it stale (apply_patch works on disk).
    assert.match(tracker.staleReason(file) ?? "", /changed on disk/);
  });
});
