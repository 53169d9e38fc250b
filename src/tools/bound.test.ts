import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, it } from "node:test";
import { tempFolder } from "../../test/support/tools.js";
import { boundOutput, utf8Head, utf8Tail } from "./bound.js";

const temp = tempFolder("bound");
let overflowDir: string;

beforeEach(() => {
  overflowDir = join(temp.path, "overflow", "nested");
});

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join("");

describe("boundOutput", () => {
  it("never writes the overflow file through a link put at its name", () => {
    const outside = temp.put("outside/victim.txt", "untouched\n");
    mkdirSync(overflowDir, { recursive: true });
    symlinkSync(outside, join(overflowDir, "c9.txt"));
    const result = boundOutput(numbered(10), {
      maxLines: 3,
      maxBytes: 10_000,
      keep: "head",
      overflowDir,
      callId: "c9",
    });
    assert.equal(readFileSync(outside, "utf8"), "untouched\n");
    assert.equal(result.overflowPath, undefined);
    assert.match(result.text, /The full output could not be saved \(.*c9\.txt changed after it was checked/);
  });

  it("writes the overflow file whole, with no temporary file left beside it", () => {
    mkdirSync(overflowDir, { recursive: true });
    writeFileSync(join(overflowDir, "c8.txt"), "an older run's\n");
    const text = numbered(10);
    boundOutput(text, { maxLines: 3, maxBytes: 10_000, keep: "head", overflowDir, callId: "c8" });
    assert.equal(readFileSync(join(overflowDir, "c8.txt"), "utf8"), text);
    assert.deepEqual(readdirSync(overflowDir), ["c8.txt"]);
  });

  it("passes text within both limits through unchanged and writes no file", () => {
    const text = numbered(5);
    const result = boundOutput(text, { maxLines: 5, maxBytes: 1000, keep: "head", overflowDir, callId: "c1" });
    assert.deepEqual(result, { text, truncated: false, totalLines: 5, totalBytes: Buffer.byteLength(text) });
    assert.equal(existsSync(overflowDir), false);
  });

  it("keeps the head within maxLines, saves the full text and says how to read the rest", () => {
    const text = numbered(10);
    const result = boundOutput(text, { maxLines: 3, maxBytes: 10_000, keep: "head", overflowDir, callId: "call_7" });
    assert.equal(result.truncated, true);
    assert.equal(result.totalLines, 10);
    assert.equal(result.totalBytes, Buffer.byteLength(text));
    const path = join(overflowDir, "call_7.txt");
    assert.equal(result.overflowPath, path);
    assert.equal(readFileSync(path, "utf8"), text);
    assert.ok(result.text.startsWith("line 1\nline 2\nline 3\n["), result.text);
    assert.ok(!result.text.includes("line 4"));
    assert.match(result.text, /the last 7 lines \(\d+ bytes\) of 10 lines/);
    assert.ok(result.text.includes(`read {path: "${path}", offset: 4}`), result.text);
    assert.ok(result.text.includes("grep"));
  });

  it("keeps the head within maxBytes, cutting at a line boundary", () => {
    const text = numbered(10); // "line 1\n" is 7 bytes
    const result = boundOutput(text, { maxLines: 100, maxBytes: 15, keep: "head", overflowDir, callId: "c2" });
    assert.ok(result.text.startsWith("line 1\nline 2\n["), result.text);
    assert.ok(result.text.includes("offset: 3}"));
    assert.match(result.text, /the last 8 lines/);
  });

  it("keeps the tail and puts the note first, pointing at the start of the file", () => {
    const text = numbered(10);
    const result = boundOutput(text, { maxLines: 2, maxBytes: 10_000, keep: "tail", overflowDir, callId: "c3" });
    assert.equal(result.truncated, true);
    assert.ok(result.text.endsWith("\nline 9\nline 10\n"), result.text);
    assert.ok(result.text.startsWith("[Output truncated: the first 8 lines"), result.text);
    assert.ok(result.text.includes("offset: 1}"));
    assert.equal(readFileSync(result.overflowPath ?? "", "utf8"), text);
  });

  it("never cuts inside a UTF-8 character, at the head or the tail", () => {
    const text = "é".repeat(10); // 2 bytes each, one line
    const head = boundOutput(text, { maxLines: 10, maxBytes: 5, keep: "head", overflowDir, callId: "h" });
    assert.ok(head.text.startsWith("éé\n["), head.text);
    assert.ok(!head.text.includes("\uFFFD"));
    const tail = boundOutput(text, { maxLines: 10, maxBytes: 5, keep: "tail", overflowDir, callId: "t" });
    assert.ok(tail.text.endsWith("\néé"), tail.text);
    assert.ok(!tail.text.includes("\uFFFD"));
    assert.equal(readFileSync(head.overflowPath ?? "", "utf8"), text);
  });

  it("handles four-byte characters at the cut", () => {
    assert.equal(utf8Head("a😀b", 4), "a");
    assert.equal(utf8Head("a😀b", 5), "a😀");
    assert.equal(utf8Tail("a😀b", 4), "b");
    assert.equal(utf8Tail("a😀b", 5), "😀b");
    assert.equal(utf8Head("abc", 10), "abc");
  });

  it("makes a safe file name of any call id", () => {
    const result = boundOutput(numbered(3), {
      maxLines: 1,
      maxBytes: 100,
      keep: "head",
      overflowDir,
      callId: "../x/y",
    });
    assert.equal(result.overflowPath, join(overflowDir, ".._x_y.txt"));
  });

  it("says so when the overflow file cannot be written, and still bounds", () => {
    const file = temp.put("a-file");
    const result = boundOutput(numbered(3), {
      maxLines: 1,
      maxBytes: 100,
      keep: "head",
      overflowDir: join(file, "sub"),
      callId: "c",
    });
    assert.equal(result.truncated, true);
    assert.equal(result.overflowPath, undefined);
    assert.match(result.text, /could not be saved/);
  });
});
