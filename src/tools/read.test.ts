import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { z } from "zod";
import { tempFolder, toolContext } from "../../test/support/tools.js";
import { createFileTracker } from "./file-tracker.js";
import { READ_MAX_BYTES, readTool } from "./read.js";

const temp = tempFolder("read");

/** A context in `cwd` (the temporary folder by default) with a fresh file tracker. */
const context = (cwd = temp.path) => toolContext(cwd, { files: createFileTracker() });

const lines = (count: number, prefix = "line") =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}\n`).join("");

describe("read", () => {
  it("shows numbered lines and records the file as seen", async () => {
    const file = temp.put("src/a.ts", "one\ntwo\nthree\n");
    const ctx = context();
    const result = await readTool.execute({ path: "src/a.ts" }, ctx);
    assert.equal(result.isError, undefined);
    assert.equal(result.output, "    1\tone\n    2\ttwo\n    3\tthree");
    assert.equal(result.summary, "read src/a.ts (3 lines)");
    assert.equal(result.metadata?.totalLines, 3);
    assert.equal(ctx.files.staleReason(file), undefined);
  });

  it("counts a last line without a line break", async () => {
    temp.put("a.txt", "one\ntwo");
    const result = await readTool.execute({ path: "a.txt" }, context());
    assert.equal(result.output, "    1\tone\n    2\ttwo");
  });

  it("pages with offset and limit and says where to continue", async () => {
    temp.put("a.txt", lines(10));
    const result = await readTool.execute({ path: "a.txt", offset: 3, limit: 4 }, context());
    assert.equal(
      result.output,
      "    3\tline 3\n    4\tline 4\n    5\tline 5\n    6\tline 6\n(Showing lines 3-6 of 10. Continue with offset 7.)",
    );
    assert.equal(result.summary, "read a.txt (lines 3-6 of 10)");
    assert.deepEqual(result.metadata, {
      path: join(temp.path, "a.txt"),
      startLine: 3,
      endLine: 6,
      totalLines: 10,
      clampedLines: 0,
    });
  });

  it("has no 'more' note on the last page", async () => {
    temp.put("a.txt", lines(10));
    const result = await readTool.execute({ path: "a.txt", offset: 8 }, context());
    assert.equal(result.output, "    8\tline 8\n    9\tline 9\n   10\tline 10");
    assert.equal(result.summary, "read a.txt (lines 8-10 of 10)");
  });

  it("reads 2,000 lines by default", async () => {
    temp.put("a.txt", lines(2500, "x"));
    const result = await readTool.execute({ path: "a.txt" }, context());
    const shown = result.output.split("\n");
    assert.equal(shown.length, 2001);
    assert.equal(shown[1999], " 2000\tx 2000");
    assert.equal(shown[2000], "(Showing lines 1-2000 of 2500. Continue with offset 2001.)");
  });

  it("stops at its byte budget on a line boundary and says where to continue", async () => {
    temp.put("a.txt", lines(2000, "y".repeat(100)));
    const result = await readTool.execute({ path: "a.txt" }, context());
    assert.ok(Buffer.byteLength(result.output) <= READ_MAX_BYTES + 200);
    const last = result.output.split("\n").at(-1) ?? "";
    const match =
      /^\(Showing lines 1-(\d+) of 2000; one read shows at most \d+ bytes\. Continue with offset (\d+)\.\)$/.exec(last);
    assert.ok(match, last);
    assert.equal(Number(match[2]), Number(match[1]) + 1);
  });

  it("refuses an offset past the end", async () => {
    temp.put("a.txt", lines(3));
    const result = await readTool.execute({ path: "a.txt", offset: 9 }, context());
    assert.equal(result.isError, true);
    assert.equal(result.output, "offset 9 is past the end of a.txt, which has 3 lines.");
  });

  it("cuts a long line with a marker", async () => {
    temp.put("a.txt", `short\n${"x".repeat(5000)}\nend\n`);
    const result = await readTool.execute({ path: "a.txt" }, context());
    const second = result.output.split("\n")[1] ?? "";
    assert.equal(second, `    2\t${"x".repeat(2000)}… [line cut: 3000 more characters]`);
    assert.equal(result.metadata?.clampedLines, 1);
  });

  it("does not show CR of CRLF lines or a byte order mark", async () => {
    temp.put("a.txt", "\uFEFFone\r\ntwo\r\n");
    const result = await readTool.execute({ path: "a.txt" }, context());
    assert.equal(result.output, "    1\tone\n    2\ttwo");
  });

  it("says when a file is empty", async () => {
    temp.put("empty.txt", "");
    const result = await readTool.execute({ path: "empty.txt" }, context());
    assert.equal(result.output, "(empty file)");
    assert.equal(result.isError, undefined);
  });

  it("refuses a file with NUL bytes", async () => {
    temp.put("data.bin2", Buffer.from([0x41, 0x00, 0x42]));
    const ctx = context();
    const result = await readTool.execute({ path: "data.bin2" }, ctx);
    assert.equal(result.isError, true);
    assert.match(result.output, /binary file/);
    assert.match(ctx.files.staleReason(join(temp.path, "data.bin2")) ?? "", /have not read/);
  });

  it("refuses a known binary extension", async () => {
    temp.put("song.mp3", "not really an mp3");
    const result = await readTool.execute({ path: "song.mp3" }, context());
    assert.equal(result.isError, true);
    assert.equal(result.output, "Cannot read song.mp3: it is a binary file (.mp3).");
  });

  it("returns an image file as an image (base64), for the models that take images", async () => {
    temp.put("logo.png", "png bytes");
    const result = await readTool.execute({ path: "logo.png" }, context());
    assert.equal(result.isError, undefined);
    assert.match(result.output, /^Image logo\.png \(image\/png, 9 bytes\)/);
    assert.deepEqual(result.images, [
      { path: "logo.png", mediaType: "image/png", data: Buffer.from("png bytes").toString("base64") },
    ]);
  });

  it("suggests similar names from the same folder when not found", async () => {
    temp.put("src/config.ts", "");
    temp.put("src/confog.ts", "");
    temp.put("src/unrelated.md", "");
    const result = await readTool.execute({ path: "src/conifg.ts" }, context());
    assert.equal(result.isError, true);
    assert.match(result.output, /^src\/conifg\.ts does not exist\. Similar: /);
    assert.ok(result.output.includes("src/config.ts"));
    assert.ok(result.output.includes("src/confog.ts"));
    assert.ok(!result.output.includes("unrelated"));
  });

  it("names the missing folder and suggests for it", async () => {
    temp.put("src/a.ts", "");
    const result = await readTool.execute({ path: "srcc/a.ts" }, context());
    assert.equal(result.output, "srcc/a.ts does not exist (no srcc). Similar: src");
  });

  it("lists a folder, folders first with a trailing slash", async () => {
    temp.put("dir/b.txt", "");
    temp.put("dir/a.txt", "");
    temp.put("dir/sub/c.txt", "");
    const ctx = context();
    const result = await readTool.execute({ path: "dir" }, ctx);
    assert.equal(result.output, "sub/\na.txt\nb.txt");
    assert.equal(result.summary, "read dir (folder, 3 entries)");
  });

  it("shows the model a lean JSON Schema and validates strictly", () => {
    const json = JSON.parse(JSON.stringify(z.toJSONSchema(readTool.schema, { io: "input" })));
    assert.deepEqual(json.properties.offset, {
      type: "integer",
      minimum: 1,
      description: "First line to read, 1-based",
    });
    assert.deepEqual(json.required, ["path"]);
    assert.equal(json.additionalProperties, false);
    assert.equal(readTool.schema.safeParse({ path: "a", offset: 0 }).success, false);
    assert.equal(readTool.schema.safeParse({ path: "a", offset: 1.5 }).success, false);
    assert.equal(readTool.schema.safeParse({ path: "a", lines: 3 }).success, false);
  });

  it("accepts absolute paths and shows paths outside cwd as given", async () => {
    const file = temp.put("outside/x.txt", "hi\n");
    const cwd = join(temp.path, "work");
    mkdirSync(cwd);
    const result = await readTool.execute({ path: file }, context(cwd));
    assert.equal(result.summary, `read ${file} (1 line)`);
  });
});
