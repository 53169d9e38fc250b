import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type FileChange, formatSyntaxError, type PatchSyntaxError, parsePatch } from "./parse.js";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

function changes(text: string): FileChange[] {
  const parsed = parsePatch(text);
  assert.ok(parsed.ok, parsed.ok ? "" : formatSyntaxError(parsed.error));
  return parsed.changes;
}

function error(text: string): PatchSyntaxError {
  const parsed = parsePatch(text);
  assert.ok(!parsed.ok, "the patch parsed");
  return parsed.error;
}

describe("apply_patch: the parser", () => {
  it("reads an added file's + lines as its content, each line ending in a newline", () => {
    assert.deepEqual(changes(patch("*** Add File: docs/new.md", "+# Title", "+", "+text")), [
      { kind: "add", path: "docs/new.md", content: "# Title\n\ntext\n", line: 2 },
    ]);
  });

  it("reads a deletion, and an update with a move and hunks of context, removed and added lines", () => {
    const text = patch(
      "*** Delete File: old.txt",
      "*** Update File: src/a.py",
      "*** Move to: src/b.py",
      "@@ def greet():",
      "-    print('hi')",
      "+    print('hello')",
      "@@",
      " x = 1",
      "",
      "-y = 2",
      "*** End of File",
    );
    assert.deepEqual(changes(text), [
      { kind: "delete", path: "old.txt", line: 2 },
      {
        kind: "update",
        path: "src/a.py",
        moveTo: "src/b.py",
        line: 3,
        hunks: [
          {
            contexts: ["def greet():"],
            lines: [
              { kind: "remove", text: "    print('hi')" },
              { kind: "add", text: "    print('hello')" },
            ],
            endOfFile: false,
            line: 5,
          },
          {
            contexts: [],
            // An empty line inside a hunk is an empty context line.
            lines: [
              { kind: "context", text: "x = 1" },
              { kind: "context", text: "" },
              { kind: "remove", text: "y = 2" },
            ],
            endOfFile: true,
            line: 8,
          },
        ],
      },
    ]);
  });

  it("takes several @@ lines as narrowing contexts, and a first hunk without @@", () => {
    const [update] = changes(patch("*** Update File: a.py", " a", "-b", "@@ class Foo", "@@     def bar(self):", "-c"));
    assert.ok(update?.kind === "update");
    assert.deepEqual(
      update.hunks.map((h) => h.contexts),
      [[], ["class Foo", "    def bar(self):"]],
    );
  });

  it("reads several files in order, and forgives blank lines, surrounding whitespace, CRLF and a here-document", () => {
    const text = [
      "apply_patch <<'EOF'",
      "  *** Begin Patch  ",
      "*** Add File: a.txt",
      "+a",
      "",
      "*** Add File: b.txt",
      "+b",
      "*** End Patch",
      "EOF",
      "",
    ].join("\r\n");
    assert.deepEqual(
      changes(text).map((c) => c.path),
      ["a.txt", "b.txt"],
    );
  });

  it("a unified diff's line numbers after @@ are left out; what follows them is the context", () => {
    const [update] = changes(patch("*** Update File: a.py", "@@ -3,4 +3,4 @@ def f():", "-x", "@@ -9 +9 @@", "-y"));
    assert.ok(update?.kind === "update");
    assert.deepEqual(
      update.hunks.map((h) => h.contexts),
      [["def f():"], []],
    );
  });

  it("a pure rename: a move with no hunks", () => {
    assert.deepEqual(changes(patch("*** Update File: a.txt", "*** Move to: b.txt")), [
      { kind: "update", path: "a.txt", moveTo: "b.txt", hunks: [], line: 2 },
    ]);
  });
});

describe("apply_patch: malformed patches say where", () => {
  it("a missing envelope", () => {
    assert.deepEqual(error("*** Add File: a\n+x\n*** End Patch"), {
      line: 1,
      message: 'the patch must start with "*** Begin Patch", got "*** Add File: a"',
    });
    assert.equal(
      error("*** Begin Patch\n*** Add File: a\n+x").message.startsWith('the patch must end with "*** End Patch"'),
      true,
    );
    assert.equal(error("  \n").message, 'the patch is empty; it must start with "*** Begin Patch"');
    assert.equal(error(patch()).message, "the patch changes no file");
  });

  it("an unknown header, or a Move to without an update", () => {
    assert.deepEqual(error(patch("*** Rename File: a")), {
      line: 2,
      message:
        'expected a file header ("*** Add File:", "*** Update File:", "*** Delete File:") or "*** End Patch", got "*** Rename File: a"',
    });
    assert.equal(error(patch("*** Move to: b")).message, '"*** Move to:" must follow an "*** Update File:" line');
  });

  it("a bad line inside a hunk names the file, the hunk and the line", () => {
    const bad = error(patch("*** Update File: a.ts", "@@", " ok", "@@ second", "-x", "oops"));
    assert.deepEqual(bad, {
      line: 7,
      file: "Update File: a.ts",
      hunk: 2,
      message: `a hunk's lines start with " " (context), "-" (removed) or "+" (added), got "oops"`,
    });
    assert.equal(
      formatSyntaxError(bad),
      `the patch does not parse at line 7 (hunk 2 of Update File: a.ts): a hunk's lines start with " " (context), "-" (removed) or "+" (added), got "oops"`,
    );
  });

  it("an update without hunks, an empty hunk, an add with an unprefixed line, an empty path", () => {
    assert.equal(
      error(patch("*** Update File: a.ts")).message,
      "an updated file needs at least one hunk (@@ and its lines)",
    );
    assert.deepEqual(error(patch("*** Update File: a.ts", "@@ foo", "*** Delete File: b")), {
      line: 3,
      file: "Update File: a.ts",
      hunk: 1,
      message: "the hunk has no lines",
    });
    assert.deepEqual(error(patch("*** Add File: a.txt", "+one", "two")), {
      line: 4,
      file: "Add File: a.txt",
      message: 'every line of an added file starts with "+", got "two"',
    });
    assert.equal(error(patch("*** Delete File:  ")).message, '"*** Delete File:" needs a path');
  });

  it("a bad @@ header, and a second hunk without one", () => {
    assert.equal(
      error(patch("*** Update File: a", "@@@ x", "-y")).message,
      'a hunk header is "@@" or "@@ <a line of the file>", got "@@@ x"',
    );
  });

  it("two sections for one file, or a move onto another section's file", () => {
    assert.equal(
      error(patch("*** Update File: a", "-x", "*** Delete File: a")).message,
      "a is also changed by the section at line 2; put all of a file's hunks in one section",
    );
    assert.equal(
      error(patch("*** Add File: b", "+x", "*** Update File: a", "*** Move to: b")).message,
      "b is also changed by the section at line 2; put all of a file's hunks in one section",
    );
  });
});
