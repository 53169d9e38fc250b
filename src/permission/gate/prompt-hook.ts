import type { Answer, Holder, Reason } from "../../contracts/decisions.js";
import { exitProblem, readHookStdout } from "./hook-output.js";
import type { Hook, HookRun } from "./hooks.js";

/** Most characters of context one hook adds to the model's conversation. */
export const HOOK_CONTEXT_LIMIT = 10_000;

export type PromptHookVerdict = Answer<"pass" | "context" | "block"> & {
  /** With `block`: what the person is told (the model never sees the prompt). */
  reason?: string;
  /** Text added for the model beside the prompt, bounded. */
  context?: string;
  hook: string;
};

/** Which hook it was, where it is written: the second reason of a lifecycle hook's decision. */
export function hookWhere(hook: Hook): Reason {
  return {
    rule: hook.key,
    detail: hook.command,
    source: hook.source,
    key: hook.key,
    ...(hook.line ? { line: hook.line } : {}),
  };
}

/** Context cut at the limit, and a reason saying so when it was. */
export function boundContext(text: string): { context: string; cut?: Reason } {
  if (text.length <= HOOK_CONTEXT_LIMIT) return { context: text };
  return {
    context: `${text.slice(0, HOOK_CONTEXT_LIMIT)}\n[cut: ${text.length} characters, the first ${HOOK_CONTEXT_LIMIT} kept]`,
    cut: { rule: "context cut", detail: `${text.length} characters; ${HOOK_CONTEXT_LIMIT} kept` },
  };
}

/**
 * Seat `turn.prompt_hook`, one hook: may the person's message start a turn, and with what
 * beside it? Exit 2 blocks (stderr is the reason, for the person); `{"decision":"block"}` or
 * `continue: false` blocks with its reason; stdout text, bosun's `{"context"}` or Claude Code's
 * `hookSpecificOutput.additionalContext` is added for the model. A hook that crashes, exits
 * otherwise, times out or prints JSON in no known shape blocks — a guard that broke is not a
 * pass — unless its `on_error` says allow (holder config). Pure.
 */
export function judgePromptHook(hook: Hook, run: HookRun): PromptHookVerdict {
  const where = hookWhere(hook);
  const failed = (why: string): PromptHookVerdict => {
    const holder: Holder = hook.onErrorWritten ? "config" : "code";
    const block = hook.onError !== "allow";
    return {
      holder,
      answer: block ? "block" : "pass",
      reasons: [
        {
          rule: "hook failed",
          detail: `${why}; on_error ${hook.onError}${hook.onErrorWritten ? "" : " (the default)"} → ${block ? "block" : "pass"}`,
          decisive: true,
          ...(hook.onErrorWritten ? { source: hook.source, key: `${hook.key}.on_error` } : {}),
        },
        where,
      ],
      ...(block ? { reason: `a hook (${hook.key}) failed: ${why}` } : {}),
      hook: hook.key,
    };
  };
  const block = (rule: string, reason: string): PromptHookVerdict => ({
    holder: "hook",
    answer: "block",
    reasons: [{ rule, detail: reason, decisive: true }, where],
    reason,
    hook: hook.key,
  });
  const added = (text: string | undefined): PromptHookVerdict => {
    if (!text)
      return {
        holder: "hook",
        answer: "pass",
        reasons: [{ rule: "hook passed", decisive: true }, where],
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
      ],
      context,
      hook: hook.key,
    };
  };
  if (run.kind === "failed") return failed(run.why);
  if (run.code === 2)
    return block("hook blocked the prompt (exit 2)", run.stderr.trim() || "no reason given (exit code 2)");
  if (run.code !== 0) return failed(exitProblem(run.code, run.stderr));
  const read = readHookStdout(run.stdout, "user_prompt_submit");
  if (read.kind === "invalid") return failed(read.why);
  if (read.kind === "text") return added(read.text);
  const out = read.output;
  if (out.stop) return block('hook said "continue": false', out.stop.reason ?? out.reason ?? "no reason given");
  if (out.decisions.some((d) => d.value === "deny"))
    return block('hook decision "block"', out.reason ?? "no reason given");
  return added(out.context.join("\n") || undefined);
}
