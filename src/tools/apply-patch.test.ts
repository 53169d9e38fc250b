import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { mountSmallDisk } from "../../test/support/small-disk.js";
import { tempFolder, toolContext } from "../../test/support/tools.js";
import { validateArguments } from "../calls/validate.js";
import { applyPatchTool } from "./apply-patch.js";
import { createFileTracker } from "./file-tracker.js";

const temp = tempFolder("apply-patch");

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const contents = (path: string) => readFileSync(join(temp.path, path), "utf8");

/** A context whose tracker has seen `read` (paths in the temporary folder). */
function context(read: string[] = [], cwd = temp.path) {
  const ctx = toolContext(cwd, { files: createFileTracker({ cwd }) });
  for (const path of read) ctx.files.seen(join(cwd, path));
  return ctx;
}

function files(): void {
  temp.put("src/app.py", "def greet():\n    print('Hi')\n\ndef other():\n    pass\n");
  chmodSync(temp.put("bin/run.sh", "#!/bin/sh\necho old\n"), 0o755);
  temp.put("obsolete.txt", "old\n");
}

const MULTI = patch(
  "*** Add File: docs/hello.txt",
  "+Hello world",
  "*** Update File: src/app.py",
  "@@ def greet():",
  "-    print('Hi')",
  "+    print('Hello, world!')",
  "*** Update File: bin/run.sh",
  "*** Move to: bin/start.sh",
  "@@",
  "-echo old",
  "+echo new",
  "*** Delete File: obsolete.txt",
);

describe("apply_patch: a patch of several files", () => {
  it("adds, updates, moves and deletes, and says so per file with a diff", async () => {
    files();
    const ctx = context(["src/app.py", "bin/run.sh", "obsolete.txt"]);
    const result = await applyPatchTool.execute({ patch: MULTI }, ctx);
    assert.equal(result.isError, undefined, result.output);
    assert.equal(contents("docs/hello.txt"), "Hello world\n");
    assert.equal(contents("src/app.py"), "def greet():\n    print('Hello, world!')\n\ndef other():\n    pass\n");
    assert.equal(contents("bin/start.sh"), "#!/bin/sh\necho new\n");
    assert.equal(statSync(join(temp.path, "bin/start.sh")).mode & 0o777, 0o755, "a moved file keeps its mode");
    assert.equal(existsSync(join(temp.path, "bin/run.sh")), false);
    assert.equal(existsSync(join(temp.path, "obsolete.txt")), false);
    const [head, ...rest] = result.output.split("\n");
    assert.equal(head, "Applied the patch to 4 files.");
    assert.deepEqual(rest.slice(0, 4), [
      "A docs/hello.txt (+1 -0)",
      "M src/app.py (+1 -1)",
      "R bin/run.sh → bin/start.sh (+1 -1)",
      "D obsolete.txt (+0 -1)",
    ]);
    assert.match(
      result.output,
      /--- src\/app\.py\n\+\+\+ src\/app\.py\n@@ -1,5 \+1,5 @@\n def greet\(\):\n- {4}print\('Hi'\)/,
    );
    // What it wrote counts as read: a next patch of those files needs no read first.
    assert.equal(ctx.files.staleReason(join(temp.path, "bin/start.sh")), undefined);
    assert.equal(ctx.files.staleReason(join(temp.path, "docs/hello.txt")), undefined);
  });

  it("describes every file as an edit request, a move by both names, a path outside the workspace as such too", async () => {
    files();
    const where = { cwd: temp.path, workspace: temp.path };
    const described = await applyPatchTool.requests({ patch: MULTI }, where);
    assert.deepEqual(
      described.requests.map((r) => `${r.action}:${r.resource.replace(temp.path, "~")}`),
      ["edit:~/docs/hello.txt", "edit:~/src/app.py", "edit:~/bin/run.sh", "edit:~/bin/start.sh", "edit:~/obsolete.txt"],
    );
    const outside = await applyPatchTool.requests({ patch: patch("*** Add File: ../x.txt", "+x") }, where);
    assert.deepEqual(
      outside.requests.map((r) => r.action),
      ["edit", "external_directory"],
    );
  });

  it("keeps a CRLF file's line endings, and a file without a final newline without one", async () => {
    temp.put("win.txt", "one\r\ntwo\r\nthree\r\n");
    temp.put("bare.txt", "a\nb");
    const result = await applyPatchTool.execute(
      {
        patch: patch(
          "*** Update File: win.txt",
          "@@",
          " one",
          "-two",
          "+TWO",
          "+2",
          "*** Update File: bare.txt",
          "@@",
          "-b",
          "+B",
        ),
      },
      context(["win.txt", "bare.txt"]),
    );
    assert.equal(result.isError, undefined, result.output);
    assert.equal(contents("win.txt"), "one\r\nTWO\r\n2\r\nthree\r\n");
    assert.equal(contents("bare.txt"), "a\nB");
  });

  it("a preview shows every file's diff, for whoever approves it", async () => {
    files();
    const shown = await applyPatchTool.preview?.({ patch: MULTI }, { cwd: temp.path, workspace: temp.path });
    assert.match(shown ?? "", /^A docs\/hello\.txt \(\+1 -0\)\nM src\/app\.py \(\+1 -1\)\n/);
    assert.match(shown ?? "", /\+\+\+ bin\/start\.sh/);
  });
});

describe("apply_patch: checked whole before anything is written", () => {
  it("a hunk that does not apply in the second file leaves every file as it was, naming the hunk and its lines", async () => {
    files();
    const bad = patch(
      "*** Update File: src/app.py",
      "@@ def greet():",
      "-    print('Hi')",
      "+    print('Hello')",
      "@@ def other():",
      "-    return 1",
      "+    return 2",
      "*** Delete File: obsolete.txt",
    );
    const result = await applyPatchTool.execute({ patch: bad }, context(["src/app.py", "obsolete.txt"]));
    assert.equal(result.isError, true);
    assert.equal(result.summary, "apply_patch (hunk 2)");
    assert.equal(
      result.output,
      "Not applied: hunk 2 of src/app.py did not apply: its lines were not found after its @@ line (line 4). Expected:\n" +
        "      return 1\n" +
        "Nothing was changed. Read the file again and retry the whole patch with its lines as they are now.",
    );
    assert.equal(contents("src/app.py"), "def greet():\n    print('Hi')\n\ndef other():\n    pass\n");
    assert.equal(contents("obsolete.txt"), "old\n");
  });

  it("a file never read, or changed since it was read, is refused like edit refuses it", async () => {
    files();
    const unread = await applyPatchTool.execute({ patch: MULTI }, context(["src/app.py", "obsolete.txt"]));
    assert.equal(unread.isError, true);
    assert.equal(unread.output, "Not applied: you have not read bin/run.sh in this session; read it first.");
    assert.equal(existsSync(join(temp.path, "docs/hello.txt")), false, "nothing was added");

    const ctx = context(["src/app.py", "bin/run.sh", "obsolete.txt"]);
    writeFileSync(join(temp.path, "obsolete.txt"), "someone else's\n");
    const changed = await applyPatchTool.execute({ patch: MULTI }, ctx);
    assert.match(changed.output, /^Not applied: obsolete\.txt changed on disk since you last read it/);
    assert.equal(contents("src/app.py"), "def greet():\n    print('Hi')\n\ndef other():\n    pass\n");
    assert.equal(
      applyPatchTool.unready?.({ patch: MULTI }, context([])),
      "you have not read src/app.py in this session; read it first",
    );
  });

  it("an added file over one not read is refused, like write; an update of a missing file says what is there", async () => {
    temp.put("exists.txt", "mine\n");
    const over = await applyPatchTool.execute({ patch: patch("*** Add File: exists.txt", "+x") }, context());
    assert.equal(over.output, "Not applied: you have not read exists.txt in this session; read it first.");
    const missing = await applyPatchTool.execute(
      { patch: patch("*** Update File: exist.txt", "@@", "-a", "+b") },
      context(),
    );
    assert.equal(missing.output, "Not applied: exist.txt does not exist. Similar: exists.txt");
  });

  it("one file reached by two spellings is refused, changing nothing", async () => {
    temp.put("a.txt", "a\n");
    const twice = patch("*** Update File: a.txt", "-a", "+b", "*** Delete File: ./a.txt");
    const result = await applyPatchTool.execute({ patch: twice }, context(["a.txt"]));
    assert.equal(
      result.output,
      "Not applied: a.txt and ./a.txt are the same file (a.txt); put all of a file's hunks in one section.",
    );
    assert.equal(contents("a.txt"), "a\n");
  });

  it("a malformed patch fails validation, saying where", () => {
    const checked = validateArguments({ patch: patch("*** Update File: a.ts", "@@", "oops") }, applyPatchTool.schema);
    assert.deepEqual(checked, {
      ok: false,
      problems: [
        `patch: the patch does not parse at line 4 (hunk 1 of Update File: a.ts): a hunk's lines start with " " (context), "-" (removed) or "+" (added), got "oops"`,
      ],
    });
  });

  it("a disk that fills up midway: every file is put back as it was", async (t) => {
    const disk = mountSmallDisk(256 * 1024);
    if ("unavailable" in disk) return t.skip(disk.unavailable);
    try {
      writeFileSync(join(disk.path, "a.txt"), "a\n");
      writeFileSync(join(disk.path, "gone.txt"), "gone\n");
      const big = Array.from({ length: 6000 }, (_, i) => `+${"x".repeat(60)} ${i}`);
      const text = patch(
        "*** Update File: a.txt",
        "-a",
        "+A",
        "*** Add File: big.txt",
        ...big,
        "*** Delete File: gone.txt",
      );
      const result = await applyPatchTool.execute({ patch: text }, context(["a.txt", "gone.txt"], disk.path));
      assert.equal(result.isError, true);
      assert.equal(
        result.output,
        "Not applied: cannot write big.txt: no space left on the device; every file is as it was.",
      );
      assert.equal(readFileSync(join(disk.path, "a.txt"), "utf8"), "a\n");
      assert.equal(readFileSync(join(disk.path, "gone.txt"), "utf8"), "gone\n");
      assert.equal(existsSync(join(disk.path, "big.txt")), false);
    } finally {
      disk.unmount();
    }
  });
});
