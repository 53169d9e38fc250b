import type { Answer } from "../../contracts/decisions.js";
import { readHookText } from "./hook-text.js";
import type { Hook, HookRun } from "./hooks.js";
import { hookWhere } from "./prompt-hook.js";

export type StartHookVerdict = Answer<"context" | "nothing" | "failed"> & { context?: string; hook: string };

/**
 * Seat `session.start_hook`, one hook: what it adds for the model when the session opens —
 * stdout text, bosun's `{"context"}` or Claude Code's `hookSpecificOutput.additionalContext`,
 * bounded. It decides nothing else (as Claude Code's SessionStart, it cannot block), so a hook
 * that breaks adds nothing and is recorded as failed; the session goes on. Pure.
 */
export function judgeStartHook(hook: Hook, run: HookRun): StartHookVerdict {
  const where = hookWhere(hook);
  const read = readHookText(run, "session_start");
  if (read.kind === "failed")
    return {
      holder: "code",
      answer: "failed",
      reasons: [{ rule: "hook failed", detail: `${read.why}; nothing added`, decisive: true }, where],
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
    answer: "context",
    reasons: [
      { rule: "hook added context", detail: read.text.slice(0, 500), decisive: true },
      where,
      ...(read.cut ? [read.cut] : []),
      ...(read.askedToStop
        ? [
            {
              rule: 'hook said "continue": false',
              detail: "not followed: a session_start hook cannot stop the session",
            },
          ]
        : []),
    ],
    context: read.text,
    hook: hook.key,
  };
}
