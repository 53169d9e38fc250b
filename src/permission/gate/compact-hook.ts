import type { Answer } from "../../contracts/decisions.js";
import { readHookText } from "./hook-text.js";
import type { Hook, HookRun } from "./hooks.js";
import { hookWhere } from "./prompt-hook.js";

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
  const read = readHookText(run, "pre_compact");
  if (read.kind === "failed")
    return {
      holder: "code",
      answer: "failed",
      reasons: [
        { rule: "hook failed", detail: `${read.why}; nothing added, the compaction goes on`, decisive: true },
        where,
      ],
      hook: hook.key,
    };
  if (read.kind === "empty")
    return {
      holder: "hook",
      answer: "nothing",
      reasons: [{ rule: "hook added nothing", decisive: true }, where],
      hook: hook.key,
    };
  return {
    holder: "hook",
    answer: "instructions",
    reasons: [
      { rule: "hook added summary instructions", detail: read.text.slice(0, 500), decisive: true },
      where,
      ...(read.cut ? [read.cut] : []),
    ],
    instructions: read.text,
    hook: hook.key,
  };
}
