import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createFileTracker } from "./file-tracker.js";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "bosun-tracker-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("createFileTracker", () => {
  it("asks for a read of a file it has never seen", () => {
    const file = join(root, "a.txt");
    writeFileSync(file, "hello\n");
    const tracker = createFileTracker();
    assert.equal(tracker.staleReason(file), `you have not read ${file} in this session; read it first`);
  });

  it("is satisfied while the file is as it was seen", () => {
    const file = join(root, "a.txt");
    writeFileSync(file, "hello\n");
    const tracker = createFileTracker();
    tracker.seen(file);
    assert.equal(tracker.staleReason(file), undefined);
  });

  it("says when and that a file changed on disk", () => {
    const file = join(root, "a.txt");
    writeFileSync(file, "hello\n");
    const tracker = createFileTracker({ now: () => Date.UTC(2025, 0, 2, 3, 4, 5) });
    tracker.seen(file);
    writeFileSync(file, "hello, world\n");
    assert.equal(
      tracker.staleReason(file),
      `${file} changed on disk since you last read it (at 2025-01-02T03:04:05.000Z); read it again`,
    );
  });

  it("catches a same-size change even when the modification time is put back", () => {
    const file = join(root, "a.txt");
    writeFileSync(file, "aaaa\n");
    const before = statSync(file);
    const tracker = createFileTracker();
    tracker.seen(file);
    writeFileSync(file, "bbbb\n");
    utimesSync(file, before.atime, before.mtime);
    assert.match(tracker.staleReason(file) ?? "", /changed on disk/);
  });

  it("does not call a touched but unchanged file stale", () => {
    const file = join(root, "a.txt");
    writeFileSync(file, "same\n");
    const tracker = createFileTracker();
    tracker.seen(file);
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
    assert.equal(tracker.staleReason(file), undefined);
  });

  it("calls a deleted file changed", () => {
    const file = join(root, "a.txt");
    writeFileSync(file, "x\n");
    const tracker = createFileTracker();
    tracker.seen(file);
    unlinkSync(file);
    assert.match(tracker.staleReason(file) ?? "", /changed on disk/);
  });

  it("shows paths relative to cwd when given one", () => {
    const file = join(root, "a.txt");
    writeFileSync(file, "x\n");
    const tracker = createFileTracker({ cwd: root });
    assert.equal(tracker.staleReason(file), "you have not read a.txt in this session; read it first");
  });

  it("records nothing for a path that is not a file", () => {
    const tracker = createFileTracker();
    tracker.seen(join(root, "missing.txt"));
    tracker.seen(root);
    assert.match(tracker.staleReason(join(root, "missing.txt")) ?? "", /have not read/);
  });
});
