import { existsSync } from "node:fs";
import { z } from "zod";
import type { CallDescription, Request } from "../contracts/requests.js";
import type { Tool, ToolResult } from "../contracts/tools.js";
import { pathRequests } from "../permission/rules/call-requests.js";
import { seenText, viaMetadata } from "./access.js";
import { type CommitResult, type CommitStep, commitAll } from "./patch/commit.js";
import { commitThroughEditor } from "./patch/commit-editor.js";
import { type FileChange, formatSyntaxError, parsePatch } from "./patch/parse.js";
import { planPatch } from "./patch/plan.js";
import { renderPatch } from "./patch/summary.js";
import { describeError, displayPath, notFoundMessage, resolvePath, staleReason } from "./paths.js";

const schema = z.strictObject({
  // A patch that does not parse fails validation (seat call.validate), saying where: it is never judged or run.
  patch: z
    .string()
    .describe("The patch: *** Begin Patch, then Add File / Update File (Move to) / Delete File sections, *** End Patch")
    .superRefine((text, ctx) => {
      const parsed = parsePatch(text);
      if (!parsed.ok) ctx.addIssue({ code: "custom", message: formatSyntaxError(parsed.error) });
    }),
});

export type ApplyPatchInput = z.infer<typeof schema>;

/** The paths a change writes: the file, and a move's destination. */
function pathsOf(change: FileChange): string[] {
  return change.kind === "update" && change.moveTo !== undefined ? [change.path, change.moveTo] : [change.path];
}

export const applyPatchTool: Tool<ApplyPatchInput> = {
  name: "apply_patch",
  description:
    "Add, update, move or delete files with one patch (*** Begin Patch / *** Add File: p (+lines) / *** Update File: p " +
    "[*** Move to: q] with @@ hunks of ' ' context, '-' removed, '+' added lines / *** Delete File: p / *** End Patch). " +
    "Read files before changing them. All of it applies, or none.",
  schema,
  kind: "edit",
  // Every file it adds, changes, moves (both names) or removes is an edit: request, judged like edit's and write's.
  async requests(input, where) {
    const parsed = parsePatch(input.patch);
    if (!parsed.ok) return { requests: [], problem: formatSyntaxError(parsed.error) };
    const requests: Request[] = [];
    const seen = new Set<string>();
    for (const path of parsed.changes.flatMap(pathsOf)) {
      const described: CallDescription = pathRequests("edit", path, where);
      if (described.problem) return { requests: [], problem: `${path}: ${described.problem}` };
      for (const request of described.requests) {
        const key = `${request.action}:${request.resource}`;
        if (seen.has(key)) continue;
        seen.add(key);
        requests.push(request);
      }
    }
    return { requests };
  },
  async preview(input, where, through) {
    const parsed = parsePatch(input.patch);
    if (!parsed.ok) return formatSyntaxError(parsed.error);
    // The diff of what it would do: of the editor's buffers when it reads through them, as execute will.
    const plan = await planPatch(parsed.changes, { cwd: where.cwd, ...through });
    if (!plan.ok) return plan.message;
    const { summary, diff } = renderPatch(plan.files);
    return [...summary, ...diff].join("\n");
  },
  // Cheap (a stat at most): an update, delete or move of a file the model has not read, or changed since.
  unready(input, ctx) {
    const parsed = parsePatch(input.patch);
    if (!parsed.ok) return undefined;
    for (const change of parsed.changes) {
      const absolute = resolvePath(ctx.cwd, change.path);
      if (!existsSync(absolute)) {
        if (change.kind !== "add") return notFoundMessage(ctx.cwd, absolute);
        continue;
      }
      const reason = staleReason(ctx, absolute);
      if (reason) return reason;
    }
    return undefined;
  },
  async execute(input, ctx) {
    const fail = (output: string, why: string): ToolResult => ({
      output,
      isError: true,
      summary: `apply_patch (${why})`,
    });
    if (ctx.signal.aborted) return fail("Applying the patch was cancelled; nothing was changed.", "cancelled");
    const parsed = parsePatch(input.patch);
    if (!parsed.ok) return fail(`Not applied: ${formatSyntaxError(parsed.error)}.`, "does not parse");

    const plan = await planPatch(parsed.changes, ctx);
    if (!plan.ok) return fail(plan.message, plan.why);
    if (ctx.signal.aborted) return fail("Applying the patch was cancelled; nothing was changed.", "cancelled");

    // Every write first, then the removals: a failing write then has fewer steps to undo.
    const steps: CommitStep[] = plan.files.flatMap((file) => file.steps);
    const write = ctx.access?.write;
    if (write && steps.some((s) => s.op === "remove")) {
      // The editor takes the writes and ACP has no removal: a file removed on disk under its buffer would be lost or come back.
      return fail(
        "Not applied: the editor takes bosun's writes (ACP fs) and cannot delete a file, so a patch with Delete File or " +
          "Move to cannot go through it; nothing was changed. Use Add File / Update File sections only, and remove " +
          "files with shell.",
        "removal through the editor",
      );
    }
    const committed: CommitResult = write
      ? await commitThroughEditor(plan.files, write, ctx.signal)
      : commitAll([...steps.filter((s) => s.op === "write"), ...steps.filter((s) => s.op === "remove")]);
    if (!committed.ok) {
      const shown = displayPath(ctx.cwd, committed.failed.target);
      const verb = committed.failed.op === "write" ? "write" : "remove";
      const left =
        committed.notRestored.length === 0
          ? "every file is as it was"
          : `could not put back ${committed.notRestored.map((n) => `${displayPath(ctx.cwd, n.target)} (${describeError(n.error)})`).join(", ")}; the other files are as they were`;
      return fail(`Not applied: cannot ${verb} ${shown}: ${describeError(committed.error)}; ${left}.`, "failed");
    }
    for (const file of plan.files) {
      // What the model now knows of it: the text it wrote, where that is not the disk's (the editor's buffer).
      const kept = file.letter === "A" || file.letter === "M";
      ctx.files.seen(file.absolute, kept ? seenText(ctx, file.after) : undefined);
      if (file.absoluteTo) ctx.files.seen(file.absoluteTo, seenText(ctx, file.after));
    }

    const { summary, diff } = renderPatch(plan.files);
    const fuzzy = plan.files.filter((f) => f.fuzz && f.fuzz !== "exact").map((f) => f.shown);
    const note = fuzzy.length > 0 ? ` Matched ignoring whitespace in ${fuzzy.join(", ")}.` : "";
    const count = `${plan.files.length} ${plan.files.length === 1 ? "file" : "files"}`;
    return {
      output: [`Applied the patch to ${count}.${note}`, ...summary, ...diff].join("\n"),
      summary: `apply_patch ${count}: ${summary.join(", ")}`,
      detail: diff.join("\n"),
      metadata: {
        files: plan.files.map((f) => ({ status: f.letter, path: f.absolute, to: f.absoluteTo })),
        ...viaMetadata(ctx),
      },
    };
  },
};
