import type { Answer } from "../../contracts/decisions.js";
import { readHookStdout } from "./hook-output.js";
import type { Hook, HookRun } from "./hooks.js";
import { boundContext, hookWhere } from "./prompt-hook.js";

export type StartHookVerdict = Answer<"context" | "nothing" | "failed"> & { context?: string; hook: string };

/**
 * Seat `session.start_hook`, one hook: what it adds for the model when the session opens —
 * stdout text, bosun's `{"context"}` or Claude Code's `hookSpecificOutput.additionalContext`,
 * bounded. It decides nothing else (as Claude Code's SessionStart, it cannot block), so a hook
 * that breaks adds nothing and is recorded as failed; the session goes on. Pure.
 */
export function judgeStartHook(hook: Hook, run: HookRun): StartHookVerdict {
  const where = hookWhere(hook);
  const failed = (why: string): StartHookVerdict => ({
    holder: "code",
    answer: "failed",
    reasons: [{ rule: "hook failed", detail: `${why}; nothing added`, decisive: true }, where],
    hook: hook.key,
  });
  if (run.kind === "failed") return failed(run.why);
  if (run.code !== 0)
    return failed(`exit code ${run.code}${run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 500)}` : ""}`);
  const read = readHookStdout(run.stdout, "session_start");
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
    answer: "context",
    reasons: [
      { rule: "hook added context", detail: context.slice(0, 500), decisive: true },
      where,
      ...(cut ? [cut] : []),
      ...(read.kind === "json" && read.output.stop
        ? [
            {
              rule: 'hook said "continue": false',
              detail: "not followed: a session_start hook cannot stop the session",
            },
          ]
        : []),
    ],
    context,
    hook: hook.key,
  };
}
