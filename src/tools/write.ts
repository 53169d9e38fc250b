import { existsSync } from "node:fs";
import { diffLines } from "diff";
import { z } from "zod";
import type { Tool } from "../contracts/tools.js";
import { pathRequests } from "../permission/rules/call-requests.js";
import { PathChangedError, readFileAt } from "../util/safe-write.js";
import { seenText, textThrough, viaMetadata, writeThrough } from "./access.js";
import {
  approvedTarget,
  changedAfterApproval,
  describeError,
  displayPath,
  failure,
  resolvePath,
  staleReason,
} from "./paths.js";
import { currentText, diffPreview } from "./preview.js";

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
  async preview(input, where, through) {
    const { absolute, text } = await currentText(where.cwd, input.path, through);
    return diffPreview(where.cwd, absolute, text, input.content);
  },
  // Creating a file needs no read; replacing one does.
  unready(input, ctx) {
    const absolute = resolvePath(ctx.cwd, input.path);
    return existsSync(absolute) ? staleReason(ctx, absolute) : undefined;
  },
  async execute(input, ctx) {
    const absolute = resolvePath(ctx.cwd, input.path);
    const shown = displayPath(ctx.cwd, absolute);
    const fail = failure("write", shown);
    if (ctx.signal.aborted) return fail(`Writing ${shown} was cancelled.`, "cancelled");
    const changed = (leadsTo: string | undefined) =>
      fail(changedAfterApproval(ctx, "written", shown, leadsTo), "changed after approval");

    // Written where the gate judged, never where a link swapped in since would lead.
    const where = approvedTarget(ctx, input.path);
    if ("problem" in where) return fail(`Not written: ${where.problem}.`, "not approved");
    if ("leadsTo" in where) return changed(where.leadsTo);
    const target = where.target;

    let before: string | undefined;
    try {
      const existing = readFileAt(target);
      if (existing.kind === "folder") return fail(`${shown} is a folder; give a file path.`, "a folder");
      if (existing.kind === "other") return fail(`${shown} is not a regular file.`, "not a file");
      if (existing.kind === "file") {
        // Replacing what the editor holds when it reads for bosun: checked against the buffer.
        before = await textThrough(ctx, target, existing.data.toString("utf8"));
        const stale = staleReason(ctx, absolute, ctx.access?.read ? before : undefined);
        if (stale) return fail(`Not written: ${stale}.`, "not read");
      }
      await writeThrough(ctx, target, input.content, { parents: before === undefined });
    } catch (error) {
      if (error instanceof PathChangedError) return changed(error.leadsTo === target ? undefined : error.leadsTo);
      // Written whole or not at all (safe-write.ts): a full disk leaves the file as it was.
      const left = before === undefined ? "nothing was created" : `${shown} is as it was`;
      return fail(`Cannot write ${shown}: ${describeError(error)}; ${left}.`, "failed");
    }
    ctx.files.seen(absolute, seenText(ctx, input.content));

    const { added, removed } = countChanges(before ?? "", input.content);
    const bytes = Buffer.byteLength(input.content, "utf8");
    const metadata = { path: absolute, created: before === undefined, added, removed, bytes, ...viaMetadata(ctx) };
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
