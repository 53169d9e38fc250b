import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempFolder, toolContext } from "../../test/support/tools.js";
import type { ToolResult } from "../contracts/tools.js";
import { type EditInput, editTool } from "./edit.js";
import { createFileTracker } from "./file-tracker.js";

const temp = tempFolder("edit");

/** A context in `cwd` (the temporary folder by default) with a fresh file tracker. */
const context = (cwd = temp.path) => toolContext(cwd, { files: createFileTracker() });

const contents = (path: string) => readFileSync(join(temp.path, path), "utf8");

/** Writes `content` to a.txt, marks it read, and runs one edit on it. */
async function editFile(content: string, input: Omit<EditInput, "path">): Promise<ToolResult> {
  const ctx = context();
  ctx.files.seen(temp.put("a.txt", content));
  return editTool.execute({ path: "a.txt", ...input }, ctx);
}

describe("edit: matching", () => {
  it("replaces one exact match and shows a diff", async () => {
    const result = await editFile("alpha\nbeta\ngamma\n", { old_string: "beta", new_string: "BETA\nmore" });
    assert.equal(result.isError, undefined);
    assert.equal(contents("a.txt"), "alpha\nBETA\nmore\ngamma\n");
    assert.equal(result.summary, "edit a.txt (+2 -1)");
    assert.equal(result.detail, "@@ -1,3 +1,4 @@\n alpha\n-beta\n+BETA\n+more\n gamma");
    assert.equal(
      result.output,
      "Edited a.txt: 1 replacement (+2 -1).\n@@ -1,3 +1,4 @@\n alpha\n-beta\n+BETA\n+more\n gamma",
    );
    assert.deepEqual(result.metadata, {
      path: join(temp.path, "a.txt"),
      tier: "exact",
      replacements: 1,
      added: 2,
      removed: 1,
    });
  });

  it("refuses several exact matches without replace_all, saying how many", async () => {
    const result = await editFile("x = 1\nx = 1\nx = 1\n", { old_string: "x = 1", new_string: "x = 2" });
    assert.equal(result.isError, true);
    assert.equal(
      result.output,
      "old_string matches 3 places in a.txt. Add surrounding lines to make it unique, or set replace_all to replace every one.",
    );
    assert.equal(contents("a.txt"), "x = 1\nx = 1\nx = 1\n");
  });

  it("replaces every match with replace_all", async () => {
    const result = await editFile("x = 1\ny\nx = 1\nx = 1\n", {
      old_string: "x = 1",
      new_string: "x = 2",
      replace_all: true,
    });
    assert.equal(result.isError, undefined);
    assert.equal(contents("a.txt"), "x = 2\ny\nx = 2\nx = 2\n");
    assert.equal(result.metadata?.replacements, 3);
    assert.match(result.output, /^Edited a\.txt: 3 replacements \(\+3 -3\)\./);
  });

  it("says when nothing matches and suggests reading again", async () => {
    const result = await editFile("alpha\n", { old_string: "omega", new_string: "x" });
    assert.equal(result.isError, true);
    assert.equal(result.output, "old_string was not found in a.txt. Read the file again and copy the text exactly.");
    assert.equal(result.summary, "edit a.txt (no match)");
  });

  it("hints when old_string carries read's line-number prefixes", async () => {
    const result = await editFile("alpha\n", { old_string: "    1\talpha", new_string: "x" });
    assert.equal(result.isError, true);
    assert.match(result.output, /Leave out read's line-number prefixes\./);
  });

  it("refuses old_string equal to new_string", async () => {
    const result = await editFile("alpha\n", { old_string: "alpha", new_string: "alpha" });
    assert.equal(result.isError, true);
    assert.equal(result.output, "old_string and new_string are the same; nothing would change.");
  });

  it("refuses an empty old_string and points to write", async () => {
    const result = await editFile("alpha\n", { old_string: "", new_string: "x" });
    assert.equal(result.isError, true);
    assert.match(result.output, /use write/);
  });
});

describe("edit: tolerant tiers", () => {
  it("matches across line endings and keeps the file's CRLF", async () => {
    const result = await editFile("one\r\ntwo\r\nthree\r\n", { old_string: "one\ntwo", new_string: "ONE\nTWO\nextra" });
    assert.equal(result.isError, undefined);
    assert.equal(contents("a.txt"), "ONE\r\nTWO\r\nextra\r\nthree\r\n");
    assert.equal(result.metadata?.tier, "line-endings");
    assert.match(result.output, /Matched ignoring line endings \(CRLF\/LF\)\./);
  });

  it("keeps CRLF when an exact match brings new lines", async () => {
    const result = await editFile("one\r\ntwo\r\n", { old_string: "two", new_string: "2a\n2b" });
    assert.equal(result.metadata?.tier, "exact");
    assert.equal(contents("a.txt"), "one\r\n2a\r\n2b\r\n");
  });

  it("keeps LF when new_string comes with CRLF", async () => {
    await editFile("one\ntwo\n", { old_string: "two", new_string: "2a\r\n2b" });
    assert.equal(contents("a.txt"), "one\n2a\n2b\n");
  });

  it("matches ignoring trailing whitespace", async () => {
    const result = await editFile("if (x) {  \n  go();\t\n}\n", {
      old_string: "if (x) {\n  go();\n}",
      new_string: "go();",
    });
    assert.equal(result.isError, undefined);
    assert.equal(result.metadata?.tier, "trailing-whitespace");
    assert.equal(contents("a.txt"), "go();\n");
  });

  it("matches ignoring typographic quotes and dashes", async () => {
    const result = await editFile("say \u2018hi\u2019 \u2014 \u201Cnow\u201D \u2013 ok\nnext\n", {
      old_string: `say 'hi' - "now" - ok`,
      new_string: "replaced",
    });
    assert.equal(result.isError, undefined);
    assert.equal(result.metadata?.tier, "typography");
    assert.equal(contents("a.txt"), "replaced\nnext\n");
  });

  it("tries the tiers in order: line endings before trailing whitespace", async () => {
    const result = await editFile("a\r\nb  \r\nc\r\n", { old_string: "a\nb  \n", new_string: "x\n" });
    assert.equal(result.metadata?.tier, "line-endings");
    assert.equal(contents("a.txt"), "x\r\nc\r\n");
  });

  it("says how many places a tolerant tier matched when it matched several", async () => {
    const result = await editFile("a  \nb\na \nb\n", { old_string: "a\nb", new_string: "x" });
    assert.equal(result.isError, true);
    assert.equal(
      result.output,
      "old_string was not found in a.txt. Read the file again and copy the text exactly. (Ignoring trailing whitespace, it matches 2 places: add surrounding lines to make it unique.)",
    );
    assert.equal(contents("a.txt"), "a  \nb\na \nb\n");
  });

  it("refuses replace_all when a tolerant tier would match more places than the exact one", async () => {
    const result = await editFile("a \nb\na\nb\n", { old_string: "a\nb", new_string: "x", replace_all: true });
    assert.equal(result.isError, true);
    assert.equal(
      result.output,
      "Not edited: old_string matches 1 place in a.txt exactly but 2 places ignoring trailing whitespace, so replace_all would miss 1. " +
        "Make those places the same first (their trailing whitespace), or edit them one by one.",
    );
    assert.equal(result.summary, "edit a.txt (1 of 2 matches)");
    assert.equal(contents("a.txt"), "a \nb\na\nb\n");
  });

  it("counts the most forgiving tier against the exact matches for replace_all", async () => {
    const result = await editFile("say 'hi'\nsay \u2018hi\u2019\r\nsay 'hi'\n", {
      old_string: "say 'hi'",
      new_string: "x",
      replace_all: true,
    });
    assert.equal(result.isError, true);
    assert.match(
      result.output,
      /matches 2 places in a\.txt exactly but 3 places ignoring typographic quotes and dashes, so replace_all would miss 1\./,
    );
  });

  it("refuses replace_all when a later tolerant tier would match more places than the first that matched", async () => {
    const result = await editFile("say 'hi'\r\nx\nsay 'hi'  \r\nx\nsay \u2018hi\u2019\nx\n", {
      old_string: "say 'hi'\nx",
      new_string: "y",
      replace_all: true,
    });
    assert.equal(result.isError, true);
    assert.match(
      result.output,
      /matches 1 place in a\.txt ignoring line endings but 3 places ignoring typographic quotes and dashes, so replace_all would miss 2\. Make those places the same first \(their quotes, dashes and whitespace\)/,
    );
  });

  it("replaces every exact match with replace_all when no tier matches more", async () => {
    const result = await editFile("a\r\nb\r\na\r\nb\r\n", { old_string: "a\r\nb", new_string: "x", replace_all: true });
    assert.equal(result.isError, undefined);
    assert.equal(result.metadata?.tier, "exact");
    assert.equal(result.metadata?.replacements, 2);
    assert.equal(contents("a.txt"), "x\r\nx\r\n");
  });

  it("replaces every tolerant match with replace_all", async () => {
    const result = await editFile("a  \nb\na \nb\n", { old_string: "a\nb", new_string: "x", replace_all: true });
    assert.equal(result.isError, undefined);
    assert.equal(result.metadata?.tier, "trailing-whitespace");
    assert.equal(result.metadata?.replacements, 2);
    assert.equal(contents("a.txt"), "x\nx\n");
  });
});

describe("edit: what it refuses and reports", () => {
  it("refuses a file it has never read", async () => {
    temp.put("a.txt", "alpha\n");
    const result = await editTool.execute({ path: "a.txt", old_string: "alpha", new_string: "x" }, context());
    assert.equal(result.isError, true);
    assert.equal(result.output, "Not edited: you have not read a.txt in this session; read it first.");
    assert.equal(contents("a.txt"), "alpha\n");
  });

  it("refuses a file that changed on disk since it was read", async () => {
    const ctx = context();
    ctx.files.seen(temp.put("a.txt", "alpha\n"));
    temp.put("a.txt", "alpha beta\n");
    const result = await editTool.execute({ path: "a.txt", old_string: "alpha", new_string: "x" }, ctx);
    assert.equal(result.isError, true);
    assert.match(result.output, /^Not edited: a\.txt changed on disk since you last read it/);
    assert.equal(contents("a.txt"), "alpha beta\n");
  });

  it("may edit again after its own edit, without a new read", async () => {
    const ctx = context();
    ctx.files.seen(temp.put("a.txt", "one two\n"));
    await editTool.execute({ path: "a.txt", old_string: "one", new_string: "1" }, ctx);
    const second = await editTool.execute({ path: "a.txt", old_string: "two", new_string: "2" }, ctx);
    assert.equal(second.isError, undefined);
    assert.equal(contents("a.txt"), "1 2\n");
  });

  it("suggests similar names when the file does not exist", async () => {
    temp.put("main.ts", "");
    const result = await editTool.execute({ path: "mian.ts", old_string: "a", new_string: "b" }, context());
    assert.equal(result.isError, true);
    assert.equal(result.output, "mian.ts does not exist. Similar: main.ts");
  });

  it("refuses a file that is not valid UTF-8 rather than corrupt it", async () => {
    const ctx = context();
    const file = temp.put("latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café\n" in Latin-1
    ctx.files.seen(file);
    const result = await editTool.execute({ path: "latin1.txt", old_string: "caf", new_string: "tea" }, ctx);
    assert.equal(result.isError, true);
    assert.match(result.output, /not valid UTF-8/);
    assert.deepEqual([...readFileSync(file)], [0x63, 0x61, 0x66, 0xe9, 0x0a]);
  });

  it("bounds a long diff", async () => {
    const before = Array.from({ length: 100 }, (_, i) => `old ${i}`).join("\n");
    const after = Array.from({ length: 100 }, (_, i) => `new ${i}`).join("\n");
    const result = await editFile(`${before}\n`, { old_string: before, new_string: after });
    assert.equal(result.isError, undefined);
    const lines = result.output.split("\n");
    assert.equal(lines.length, 62);
    assert.equal(lines.at(-1), "… 141 more diff lines");
    assert.deepEqual([result.metadata?.added, result.metadata?.removed], [100, 100]);
  });
});
