import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { appendHistory, loadHistory } from "./history.js";

const dir = mkdtempSync(join(tmpdir(), "bosun-history-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("the prompt history", () => {
  it("keeps what was typed per project, in order, across loads, readable only by its owner", () => {
    const file = join(dir, "history.jsonl");
    appendHistory(file, "/work/a", "first in a");
    appendHistory(file, "/work/b", "in b");
    appendHistory(file, "/work/a", "second\\nline in a");
    assert.deepEqual(loadHistory(file, "/work/a"), ["first in a", "second\\nline in a"]);
    assert.deepEqual(loadHistory(file, "/work/b"), ["in b"]);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it("never appends through a link put where the file should be", () => {
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "untouched\n");
    const file = join(dir, "linked.jsonl");
    symlinkSync(victim, file);
    appendHistory(file, "/w", "typed");
    assert.equal(readFileSync(victim, "utf8"), "untouched\n");
  });

  it("skips a line cut short and reads nothing from a missing or unreadable file", () => {
    const file = join(dir, "cut.jsonl");
    appendHistory(file, "/w", "whole");
    appendFileSync(file, '\n{"project":"/w","te'); // a write a crash cut short
    appendHistory(file, "/w", "after");
    assert.deepEqual(loadHistory(file, "/w"), ["whole", "after"]);
    assert.deepEqual(loadHistory(join(dir, "none.jsonl"), "/w"), []);
    assert.deepEqual(loadHistory(dir, "/w"), [], "a folder where the file should be");
    appendHistory(join(dir, "no", "such", "folder.jsonl"), "/w", "lost, quietly");
  });
});
