import type { PromptHookVerdict } from "../permission/gate/prompt-hook.js";
import type { UserMessage } from "../session/events.js";
import type { TurnRecorder } from "./recorder.js";

/** The session's prompt hooks, as the runtime hands them in: run and judged, not yet recorded. */
export type PromptHooks = (prompt: string) => Promise<PromptHookVerdict[]>;

/** What the prompt hooks let in: nothing (blocked, with the reason for the person), or context beside the message. */
export type PromptAdmission = { blocked: string; hook: string } | { context: string[] };

/**
 * Seat `turn.prompt_hook`: each hook's answer on record, before the message is. A block keeps
 * the message out of the conversation altogether (the model never sees it), as Claude Code does.
 */
export async function admitPrompt(
  message: UserMessage,
  hooks: PromptHooks | undefined,
  recorder: Pick<TurnRecorder, "decision">,
): Promise<PromptAdmission> {
  if (!hooks) return { context: [] };
  const verdicts = await hooks(message.text);
  const context: string[] = [];
  let blocked: PromptAdmission | undefined;
  // Every hook ran: each answer is on record, and the first block holds.
  for (const { reason, context: added, hook, ...verdict } of verdicts) {
    recorder.decision({ seat: "turn.prompt_hook", ...verdict, subject: { hook, event: "user_prompt_submit" } });
    if (verdict.answer === "block") blocked ??= { blocked: reason ?? "no reason given", hook };
    if (added) context.push(`[hook ${hook}] ${added}`);
  }
  return blocked ?? { context };
}

/**
 * A message the person typed to steer the running turn passes the same prompt hooks: let in, on
 * record with the context they add; blocked, it is left out and the person told why.
 */
export async function admitSteering(
  text: string,
  hooks: PromptHooks | undefined,
  recorder: Pick<TurnRecorder, "decision" | "user" | "notice">,
  tell: (message: string) => void,
): Promise<void> {
  const admitted = await admitPrompt({ text }, hooks, recorder);
  if ("blocked" in admitted) {
    tell(`your message was blocked by a hook (${admitted.hook}): ${admitted.blocked}`);
    return;
  }
  recorder.user({ text });
  if (admitted.context.length > 0) recorder.notice({ text: admitted.context.join("\n\n") });
}
