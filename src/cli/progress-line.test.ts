import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LOGGED_EVERY_MS, PROGRESS_CHARS, progressLine, progressShown } from "./progress-line.js";

const report = (progress: number, message?: string) => ({
  id: "c1",
  name: "mcp__slow__work",
  progress,
  total: 6,
  ...(message !== undefined ? { message } : {}),
});

describe("a call's progress in plain-text bosun run", () => {
  it("is one line, its message flattened and cut", () => {
    assert.equal(progressLine(report(3, "half\nway")), "  … mcp__slow__work 3/6 · half way");
    const long = progressLine(report(1, "x".repeat(500)));
    assert.equal(long.length, PROGRESS_CHARS);
    assert.ok(long.endsWith("…"));
    assert.equal(progressLine(report(1, "x".repeat(500)), 40).length, 40);
  });

  it("into a file or pipe: the first report at once, then at most one line per call every 5 s", () => {
    const written: string[] = [];
    let clock = 0;
    const shown = progressShown({ write: (t) => written.push(t), tty: false, now: () => clock });
    for (let n = 1; n <= 100; n++) {
      shown.show(report(n));
      clock += 100;
    }
    // 10 s of reports: at 0, 5 s; never a carriage return, each line its own.
    assert.deepEqual(written, ["  … mcp__slow__work 1/6\n", `  … mcp__slow__work ${LOGGED_EVERY_MS / 100 + 1}/6\n`]);
    shown.clear();
    assert.equal(written.length, 2, "nothing to wipe in a log");
  });

  it("at a terminal: one line drawn over in place, within its width, wiped before anything else", () => {
    const written: string[] = [];
    let clock = 0;
    const shown = progressShown({ write: (t) => written.push(t), tty: true, columns: 30, now: () => clock });
    shown.show(report(1));
    clock += 50;
    shown.show(report(2));
    clock += 100;
    shown.show(report(3));
    assert.deepEqual(written, ["  … mcp__slow__work 1/6", "\r\x1b[2K", "  … mcp__slow__work 3/6"]);
    shown.show({ ...report(4, "a message too long for thirty columns"), id: "c2" });
    assert.equal(written.at(-1)?.length, 29);
    shown.clear();
    assert.equal(written.at(-1), "\r\x1b[2K");
    shown.clear();
    assert.equal(written.filter((t) => t === "\r\x1b[2K").length, 3, "wiped once, not again");
  });
});
