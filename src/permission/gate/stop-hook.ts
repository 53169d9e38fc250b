import type { Answer } from "../../contracts/decisions.js";
import { readHookStdout } from "./hook-output.js";
import type { Hook, HookRun } from "./hooks.js";
import { hookWhere } from "./prompt-hook.js";

/** What one stop hook says of the turn's end. */
export type StopHookAnswer = "done" | "block" | "failed";

export type StopHookVerdict = Answer<StopHookAnswer> & {
  /** With `block`: what the agent is told to do before it may end. */
  reason?: string;
  /** With `failed`: why, for the turn's failure message. */
  failure?: string;
  hook: string;
  /** `stop`, or `subagent_stop` at a delegate's end. */
  event: string;
};

/**
 * Seat `turn.stop_hook`, one hook: may the turn end as done? Exit 2 sends the agent back with
 * stderr as the reason; `{"decision": "block", "reason": "…"}` (bosun's and Claude Code's Stop
 * shape) sends it back with its reason; exit 0 with nothing, text, or `continue: false` lets it
 * end. A hook that crashes, exits otherwise, times out or prints JSON in no shape bosun knows has
 * failed — and a failed check is not "done": the caller ends the turn as failed. Pure.
 */
export function judgeStopHook(hook: Hook, run: HookRun): StopHookVerdict {
  const where = hookWhere(hook);
  const failed = (why: string): StopHookVerdict => ({
    holder: "code",
    answer: "failed",
    reasons: [{ rule: "stop hook failed", detail: `${why}; the turn is not done`, decisive: true }, where],
    failure: `a stop hook (${hook.key}) failed: ${why}`,
    hook: hook.key,
    event: hook.event,
  });
  const block = (rule: string, reason: string): StopHookVerdict => ({
    holder: "hook",
    answer: "block",
    reasons: [{ rule, detail: reason, decisive: true }, where],
    reason,
    hook: hook.key,
    event: hook.event,
  });
  if (run.kind === "failed") return failed(run.why);
  if (run.code === 2) return block("stop hook blocked (exit 2)", run.stderr.trim() || "no reason given (exit code 2)");
  if (run.code !== 0)
    return failed(`exit code ${run.code}${run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 500)}` : ""}`);
  const read = readHookStdout(run.stdout, hook.event);
  if (read.kind === "invalid") return failed(read.why);
  const done = (rule: string, detail?: string): StopHookVerdict => ({
    holder: "hook",
    answer: "done",
    reasons: [{ rule, ...(detail ? { detail } : {}), decisive: true }, where],
    hook: hook.key,
    event: hook.event,
  });
  if (read.kind === "text") return done("stop hook passed (exit 0)", read.text ? read.text.slice(0, 500) : undefined);
  const out = read.output;
  // Claude Code: `continue: false` wins over any decision — processing stops, so the turn ends.
  if (out.stop) return done('stop hook said "continue": false', out.stop.reason ?? "no reason given");
  if (out.decisions.some((d) => d.value === "deny"))
    return block('stop hook decision "block"', out.reason ?? "no reason given");
  return done("stop hook passed", out.reason);
}

/** What the turn does once its stop hooks have answered. */
export type StopNext =
  | { kind: "done" }
  | { kind: "continue"; reason: string }
  | { kind: "failed"; message: string }
  | { kind: "limit"; message: string; decision: Answer<"stop"> };

/**
 * After every stop hook of this end: one that failed fails the turn (a broken check is no
 * "done"); one that blocked sends the agent back with every blocking reason — unless the turn
 * was already sent back `limit` times (`hooks.stop_limit`), when it stops as a limit, recorded
 * (seat turn.stop_hook, holder config or code), never as done. Pure.
 */
export function decideStopHooks(
  verdicts: readonly StopHookVerdict[],
  blocksSoFar: number,
  limit: { value: number; source: string; written: boolean },
): StopNext {
  const failed = verdicts.find((v) => v.answer === "failed");
  if (failed) return { kind: "failed", message: failed.failure ?? `a stop hook (${failed.hook}) failed` };
  const blocking = verdicts.filter((v) => v.answer === "block");
  if (blocking.length === 0) return { kind: "done" };
  const reason = blocking.map((v) => v.reason ?? "no reason given").join("\n");
  if (blocksSoFar < limit.value) return { kind: "continue", reason };
  return {
    kind: "limit",
    message: `stopped: stop hooks sent the agent back ${blocksSoFar} time(s) (hooks.stop_limit ${limit.value}) and still block: ${reason.slice(0, 300)}`,
    decision: {
      holder: limit.written ? "config" : "code",
      answer: "stop",
      reasons: [
        {
          rule: "stop hooks' limit reached",
          detail: `sent back ${blocksSoFar} of ${limit.value} time(s); they still block, so the turn is not done`,
          source: limit.source,
          key: "hooks.stop_limit",
          decisive: true,
        },
      ],
    },
  };
}
