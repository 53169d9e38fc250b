import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyReplacements, locateHunks } from "./locate.js";
import type { Hunk, HunkLine } from "./parse.js";

/** A hunk from diff-style lines: " x" context, "-x" removed, "+x" added. */
function hunk(lines: string[], contexts: string[] = [], endOfFile = false): Hunk {
  const kinds: Record<string, HunkLine["kind"]> = { " ": "context", "-": "remove", "+": "add" };
  return {
    contexts,
    lines: lines.map((l) => ({ kind: kinds[l[0] as string] as HunkLine["kind"], text: l.slice(1) })),
    endOfFile,
    line: 1,
  };
}

function apply(file: string[], hunks: Hunk[]): { lines: string[]; fuzz: string } {
  const located = locateHunks(file, hunks);
  assert.ok(located.ok, located.ok ? "" : located.failure.reason);
  return { lines: applyReplacements(file, located.replacements), fuzz: located.fuzz };
}

function failure(file: string[], hunks: Hunk[]) {
  const located = locateHunks(file, hunks);
  assert.ok(!located.ok, "the hunks were placed");
  return located.failure;
}

describe("apply_patch: placing hunks", () => {
  it("exact lines first", () => {
    assert.deepEqual(apply(["a", "b", "c"], [hunk([" a", "-b", "+B", " c"])]), {
      lines: ["a", "B", "c"],
      fuzz: "exact",
    });
  });

  it("then ignoring trailing whitespace, then all whitespace around the lines; the loosest used is said", () => {
    assert.deepEqual(apply(["a  ", "b\t", "c"], [hunk([" a", "-b", "+B"])]), {
      lines: ["a  ", "B", "c"],
      fuzz: "trailing-whitespace",
    });
    assert.deepEqual(apply(["    a", "  b", "c"], [hunk([" a", "-b", "+  B"])]), {
      lines: ["    a", "  B", "c"],
      fuzz: "whitespace",
    });
    assert.equal(failure(["a", "b c"], [hunk(["-bc"])]).reason, "its lines were not found");
  });

  it("hunks in order, each after the one before; one given out of order says so", () => {
    const file = ["x", "a", "y", "b", "z"];
    assert.deepEqual(apply(file, [hunk(["-a", "+A"]), hunk(["-b", "+B"])]).lines, ["x", "A", "y", "B", "z"]);
    const late = failure(file, [hunk(["-b", "+B"]), hunk(["-a", "+A"])]);
    assert.equal(late.hunk, 2);
    assert.equal(
      late.reason,
      "its lines were not found after line 4, where the hunk before it ended (they match before that, at line 2: give a file's hunks in the order they appear)",
    );
    assert.deepEqual(late.expected, ["a"]);
  });

  it("a hunk that matches several places is refused, naming them; an @@ line picks the place", () => {
    const file = ["def one():", "    return x", "def two():", "    return x"];
    const ambiguous = failure(file, [hunk(["-    return x", "+    return y"])]);
    assert.equal(
      ambiguous.reason,
      "its lines match 2 places (lines 2, 4): add an @@ line naming the enclosing class or function, or more context lines",
    );
    assert.deepEqual(apply(file, [hunk(["-    return x", "+    return y"], ["def two():"])]).lines, [
      "def one():",
      "    return x",
      "def two():",
      "    return y",
    ]);
  });

  it("ambiguity is judged at the first tolerance that matches: an exact match wins over looser ones", () => {
    assert.deepEqual(apply(["b ", "b"], [hunk(["-b", "+B"])]).lines, ["b ", "B"]);
    assert.match(failure(["b ", "b\t"], [hunk(["-b", "+B"])]).reason, /^its lines match 2 places \(lines 1, 2\)/);
  });

  it("several @@ lines narrow in turn; the first must be unique, an unknown one is named", () => {
    const file = ["class A:", "  def f():", "    pass", "class B:", "  def f():", "    pass"];
    const placed = apply(file, [hunk(["-    pass", "+    return 1"], ["class B:", "  def f():"])]);
    assert.deepEqual(placed.lines.slice(3), ["class B:", "  def f():", "    return 1"]);
    assert.match(
      failure(file, [hunk(["-    pass"], ["  def f():"])]).reason,
      /^its @@ line matches 2 places \(lines 2, 5\)/,
    );
    const unknown = failure(file, [hunk(["-    pass"], ["class C:"])]);
    assert.deepEqual([unknown.reason, unknown.expected], ["its @@ line was not found", ["class C:"]]);
  });

  it("only added lines go after the @@ line, or without one at the end of the file", () => {
    assert.deepEqual(apply(["a", "b"], [hunk(["+new"], ["a"])]).lines, ["a", "new", "b"]);
    assert.deepEqual(apply(["a", "b"], [hunk(["+new"])]).lines, ["a", "b", "new"]);
  });

  it("an End of File hunk matches the file's last lines first", () => {
    const file = ["end", "x", "end"];
    assert.deepEqual(apply(file, [hunk(["-end", "+END"], [], true)]).lines, ["end", "x", "END"]);
  });

  it("trailing blank context lines (blank lines before the next section) are not required", () => {
    assert.deepEqual(apply(["a", "b"], [hunk(["-b", "+B", " ", " "])]).lines, ["a", "B"]);
  });
});
