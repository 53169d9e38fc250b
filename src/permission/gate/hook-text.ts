import type { Reason } from "../../contracts/decisions.js";
import { exitProblem, readHookStdout } from "./hook-output.js";
import type { HookEvent, HookRun } from "./hooks.js";
import { boundContext } from "./prompt-hook.js";

/**
 * What a hook that only adds text (session_start, pre_compact) left: why it failed (a crash, a
 * non-zero exit, JSON in no known shape), nothing, or its text — stdout, bosun's `{"context"}`
 * or Claude Code's additionalContext — bounded, with whether it asked to stop (which such a
 * hook cannot). One reading, so the two events cannot drift apart. Pure.
 */
export type HookText =
  | { kind: "failed"; why: string }
  | { kind: "empty" }
  | { kind: "text"; text: string; cut?: Reason; askedToStop: boolean };

export function readHookText(run: HookRun, event: HookEvent): HookText {
  if (run.kind === "failed") return { kind: "failed", why: run.why };
  if (run.code !== 0) return { kind: "failed", why: exitProblem(run.code, run.stderr) };
  const read = readHookStdout(run.stdout, event);
  if (read.kind === "invalid") return { kind: "failed", why: read.why };
  const text = read.kind === "text" ? read.text : read.output.context.join("\n");
  if (!text) return { kind: "empty" };
  const { context, cut } = boundContext(text);
  return {
    kind: "text",
    text: context,
    ...(cut ? { cut } : {}),
    askedToStop: read.kind === "json" && !!read.output.stop,
  };
}
