import type { Answer } from "../../contracts/decisions.js";
import { readHookStdout } from "./hook-output.js";
import type { Hook, HookRun } from "./hooks.js";
import { boundContext, hookWhere } from "./prompt-hook.js";

export type CompactHookVerdict = Answer<"instructions" | "nothing" | "failed"> & {
  /** Added to the summary's instructions. */
  instructions?: string;
  hook: string;
};

/**
 * Seat `compaction.hook`, one hook: told a compaction is about to run (as Claude Code's
 * PreCompact, it cannot stop it), what it adds to the summary's instructions — stdout text or
 * `{"context"}`, bounded. One that crashes, exits non-zero, times out or prints JSON in no known
 * shape adds nothing, recorded; the compaction goes on. Pure.
 */
export function judgeCompactHook(hook: Hook, run: HookRun): CompactHookVerdict {
  const where = hookWhere(hook);
  const failed = (why: string): CompactHookVerdict => ({
    holder: "code",
    answer: "failed",
    reasons: [{ rule: "hook failed", detail: `${why}; nothing added, the compaction goes on`, decisive: true }, where],
    hook: hook.key,
  });
  if (run.kind === "failed") return failed(run.why);
  if (run.code !== 0)
    return failed(`exit code ${run.code}${run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 500)}` : ""}`);
  const read = readHookStdout(run.stdout, "pre_compact");
  if (read.kind === "invalid") return failed(read.why);
  const text = read.kind === "text" ? read.text : read.output.context.join("\n");
  if (!text)
    return {
      holder: "hook",
      answer: "nothing",
      reasons: [{ rule: "hook added nothing", decisive: true }, where],
      hook: hook.key,
    };
  const { context, cut } = boundContext(text);
  return {
    holder: "hook",
    answer: "instructions",
    reasons: [
      { rule: "hook added summary instructions", detail: context.slice(0, 500), decisive: true },
      where,
      ...(cut ? [cut] : []),
    ],
    instructions: context,
    hook: hook.key,
  };
}
