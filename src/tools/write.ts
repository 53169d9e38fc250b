import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { diffLines } from "diff";
import { z } from "zod";
import { pathRequests } from "../permission/call-requests.js";
import { describeError, displayPath, errorCode, failure, resolvePath, staleReason } from "./paths.js";
import { currentText, diffPreview } from "./preview.js";
import type { Tool } from "./types.js";

const schema = z.strictObject({
  path: z.string().describe("File to create or replace"),
  content: z.string().describe("The whole new content"),
});

export type WriteInput = z.infer<typeof schema>;

export const writeTool: Tool<WriteInput> = {
  name: "write",
  description: "Create a file, or replace one whole (read it first). Creates parent folders. Prefer edit for changes.",
  schema,
  kind: "edit",
  requests: async (input, where) => pathRequests("edit", input.path, where),
  async preview(input, where) {
    const { absolute, text } = await currentText(where.cwd, input.path);
    return diffPreview(where.cwd, absolute, text, input.content);
  },
  async execute(input, ctx) {
    const absolute = resolvePath(ctx.cwd, input.path);
    const shown = displayPath(ctx.cwd, absolute);
    const fail = failure("write", shown);
    if (ctx.signal.aborted) return fail(`Writing ${shown} was cancelled.`, "cancelled");

    let before: string | undefined;
    try {
      const info = await stat(absolute);
      if (info.isDirectory()) return fail(`${shown} is a folder; give a file path.`, "a folder");
      if (!info.isFile()) return fail(`${shown} is not a regular file.`, "not a file");
      const stale = staleReason(ctx, absolute);
      if (stale) return fail(`Not written: ${stale}.`, "not read");
      before = await readFile(absolute, "utf8");
    } catch (error) {
      if (errorCode(error) !== "ENOENT") return fail(`Cannot write ${shown}: ${describeError(error)}`, "failed");
    }

    try {
      if (before === undefined) await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, input.content, "utf8");
    } catch (error) {
      return fail(`Cannot write ${shown}: ${describeError(error)}`, "failed");
    }
    ctx.files.seen(absolute);

    const { added, removed } = countChanges(before ?? "", input.content);
    const bytes = Buffer.byteLength(input.content, "utf8");
    const metadata = { path: absolute, created: before === undefined, added, removed, bytes };
    if (before === undefined) {
      const lines = `${added} ${added === 1 ? "line" : "lines"}`;
      return {
        output: `Created ${shown} (${lines}).`,
        summary: `write ${shown} (created, ${lines})`,
        detail: diffPreview(ctx.cwd, absolute, "", input.content),
        metadata,
      };
    }
    if (before === input.content) {
      return {
        output: `${shown} already had this content; nothing changed.`,
        summary: `write ${shown} (unchanged)`,
        metadata,
      };
    }
    return {
      output: `Overwrote ${shown} (+${added} -${removed} lines).`,
      summary: `write ${shown} (+${added} -${removed})`,
      detail: diffPreview(ctx.cwd, absolute, before, input.content),
      metadata,
    };
  },
};

/** Lines added and removed between two texts. */
export function countChanges(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const change of diffLines(before, after)) {
    if (change.added) added += change.count;
    else if (change.removed) removed += change.count;
  }
  return { added, removed };
}
