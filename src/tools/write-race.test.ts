import assert from "node:assert/strict";
import { lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { snapshot, startFlipper } from "../../test/support/flipper.js";
import { tempFolder, toolContext } from "../../test/support/tools.js";
import type { CallDescription } from "../contracts/requests.js";
import type { FileTracker, Tool, ToolContext, ToolResult } from "../contracts/tools.js";
import { editTool } from "./edit.js";
import { createFileTracker } from "./file-tracker.js";
import { writeTool } from "./write.js";

const temp = tempFolder("write-race");

/** A workspace and a folder outside it holding a secret, both real paths. */
function setup(): { ws: string; out: string; secret: string } {
  const ws = join(temp.path, "ws");
  const out = join(temp.path, "outside");
  mkdirSync(ws);
  mkdirSync(out);
  writeFileSync(join(out, "secret.txt"), "untouched\n");
  return { ws, out, secret: join(out, "secret.txt") };
}

/** A context whose call was judged as the gate would judge it now, in workspace `ws`. */
async function judged<I>(tool: Tool<I>, input: I, ws: string, files: FileTracker): Promise<ToolContext> {
  let description: CallDescription;
  try {
    description = await tool.requests(input, { cwd: ws, workspace: ws });
  } catch (error) {
    // As the gate does: a call that cannot be described is a problem, never run.
    description = { requests: [], problem: String(error) };
  }
  return { ...toolContext(ws, { files }), judged: description };
}

/** A tracker that has seen everything as it is: the race tests are about where writes land, not staleness. */
const seenAll: FileTracker = { seen() {}, staleReason: () => undefined };

describe("write and edit land where the gate judged", () => {
  it("write through a link inside the workspace writes its target and keeps the link", async () => {
    const { ws } = setup();
    writeFileSync(join(ws, "real.md"), "old\n");
    symlinkSync("real.md", join(ws, "notes.md"));
    const files = createFileTracker();
    files.seen(join(ws, "notes.md"));
    const input = { path: "notes.md", content: "new\n" };
    const result = await writeTool.execute(input, await judged(writeTool, input, ws, files));
    assert.equal(result.isError, undefined, result.output);
    assert.equal(readFileSync(join(ws, "real.md"), "utf8"), "new\n");
    assert.ok(lstatSync(join(ws, "notes.md")).isSymbolicLink());
  });

  it("write refuses a name swapped for a link out after the check", async () => {
    const { ws, secret } = setup();
    writeFileSync(join(ws, "notes.md"), "mine\n");
    const files = createFileTracker();
    files.seen(join(ws, "notes.md"));
    const input = { path: "notes.md", content: "stolen\n" };
    const ctx = await judged(writeTool, input, ws, files);
    rmSync(join(ws, "notes.md"));
    symlinkSync(secret, join(ws, "notes.md"));
    const result = await writeTool.execute(input, ctx);
    assert.equal(result.isError, true);
    assert.equal(
      result.output,
      `Not written: notes.md changed after it was approved (it now leads to ${secret}); read it again.`,
    );
    assert.equal(result.summary, "write notes.md (changed after approval)");
    assert.equal(readFileSync(secret, "utf8"), "untouched\n");
  });

  it("write refuses a new file whose folder was swapped for a link out after the check", async () => {
    const { ws, out } = setup();
    mkdirSync(join(ws, "docs"));
    const input = { path: "docs/new.md", content: "stolen\n" };
    const ctx = await judged(writeTool, input, ws, createFileTracker());
    renameSync(join(ws, "docs"), join(ws, "docs.away"));
    symlinkSync(out, join(ws, "docs"));
    const result = await writeTool.execute(input, ctx);
    assert.equal(result.isError, true);
    assert.match(
      result.output,
      /^Not written: docs\/new\.md changed after it was approved \(it now leads to .*outside\/new\.md\)/,
    );
    assert.deepEqual(Object.keys(snapshot(out)), ["secret.txt"]);
  });

  it("edit refuses a name swapped for a link out, and shows nothing of what it leads to", async () => {
    const { ws, secret } = setup();
    writeFileSync(join(ws, "notes.md"), "untouched\n");
    const files = createFileTracker();
    files.seen(join(ws, "notes.md"));
    const input = { path: "notes.md", old_string: "untouched", new_string: "stolen" };
    const ctx = await judged(editTool, input, ws, files);
    rmSync(join(ws, "notes.md"));
    symlinkSync(secret, join(ws, "notes.md"));
    const result = await editTool.execute(input, ctx);
    assert.equal(
      result.output,
      `Not edited: notes.md changed after it was approved (it now leads to ${secret}); read it again.`,
    );
    assert.equal(readFileSync(secret, "utf8"), "untouched\n");
  });

  it("refuses a call whose judged description names no edit path", async () => {
    const { ws } = setup();
    const ctx = { ...toolContext(ws, { files: createFileTracker() }), judged: { requests: [] } };
    const result = await writeTool.execute({ path: "x.md", content: "x" }, ctx);
    assert.equal(result.output, "Not written: no one path of it was approved for editing.");
  });
});

type Run = (
  tool: Tool<Record<string, unknown>>,
  input: Record<string, unknown>,
  ctx: ToolContext,
) => Promise<ToolResult>;

/**
 * Write and edit calls on names the flipper swaps, each judged as the gate would (a call whose
 * path leads out when judged is not run: nobody is here to allow it), then run by `run` a moment
 * later, as the loop would. Runs at least `ms`, and on (up to three times as long) until some
 * call was refused as changed after approval, or an outside file changed.
 */
async function race(run: Run, ms: number) {
  const { ws, out } = setup();
  mkdirSync(join(ws, "sub"));
  writeFileSync(join(ws, "notes.md"), "base");
  const before = snapshot(out);
  const flipper = startFlipper(ws, out);
  const counts = { landed: 0, changed: 0, judgedOutside: 0, other: 0 };
  const paths = ["notes.md", "sub/notes.md", "deep/new/notes.md"];
  let calls = 0;
  /** Results that named bosun's descriptor paths instead of the folder: the model could not act on them. */
  const procPaths: string[] = [];
  const start = Date.now();
  const more = () => {
    const spent = Date.now() - start;
    if (spent < ms) return true;
    const seen = counts.changed > 0 || JSON.stringify(snapshot(out)) !== JSON.stringify(before);
    return !seen && spent < 3 * ms;
  };
  try {
    await new Promise((resolve) => setTimeout(resolve, 100));
    while (more()) {
      calls++;
      const path = paths[calls % 3] as string;
      const useEdit = calls % 2 === 0;
      const input = useEdit
        ? { path, old_string: "base", new_string: `edited ${calls}` }
        : { path, content: `written ${calls}` };
      const tool = (useEdit ? editTool : writeTool) as Tool<Record<string, unknown>>;
      const ctx = await judged(tool, input, ws, seenAll);
      if (ctx.judged?.problem || ctx.judged?.requests.some((r) => r.action === "external_directory")) {
        counts.judgedOutside++;
        continue;
      }
      // What lies between the judgement and the run in the loop (records, hooks, the recheck) takes a moment.
      await new Promise((resolve) => setTimeout(resolve, calls % 4));
      const result = await run(tool, input, ctx);
      if (!result.isError) counts.landed++;
      else if (result.output.includes("changed after it was approved")) counts.changed++;
      else counts.other++;
      if (result.output.includes("/proc/self/fd")) procPaths.push(result.output);
    }
  } finally {
    await flipper.stop();
  }
  return { counts, calls, procPaths, before, after: snapshot(out) };
}

describe("write and edit racing a background job that swaps links in", () => {
  it("calibration: writing by the path as named, the way write did, gets out", async () => {
    const result = await race(async (_tool, input, ctx) => {
      const file = join(ctx.cwd, input.path as string);
      try {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, String(input.content ?? input.new_string));
        return { output: "written", summary: "written" };
      } catch (error) {
        return { output: String(error), summary: "failed", isError: true };
      }
    }, 2000);
    assert.notDeepEqual(result.after, result.before, `the harness got a write out in ${result.calls} calls`);
  });

  it("never changes anything outside the workspace", async () => {
    const result = await race((tool, input, ctx) => tool.execute(input, ctx), 4000);
    const facts = `${result.calls} calls: ${JSON.stringify(result.counts)}`;
    if (process.env.RACE_COUNTS) console.log(facts);
    assert.deepEqual(result.after, result.before, `nothing outside changed in ${facts}`);
    assert.ok(result.counts.landed > 0, `some calls wrote: ${facts}`);
    assert.deepEqual(result.procPaths, [], "failures name the folder, not /proc/self/fd");
    assert.ok(result.counts.changed > 0, `some were refused as changed after approval: ${facts}`);
  });
});
