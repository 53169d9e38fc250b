import { type CompactHookVerdict, judgeCompactHook } from "./compact-hook.js";
import type { GateDeps } from "./gate.js";
import { CLAUDE_EVENT_NAMES } from "./hook-claude.js";
import { runConfinedHook } from "./hook-confined.js";
import { judgePromptHook, type PromptHookVerdict } from "./prompt-hook.js";
import { judgeStartHook, type StartHookVerdict } from "./start-hook.js";
import { judgeStopHook, type StopHookVerdict } from "./stop-hook.js";

/** What the turn tells its stop hooks. */
export interface StopInput {
  step: number;
  /** The reply that would end the turn. */
  lastText: string;
  /** Stop hooks already sent the agent back in this turn (Claude Code's `stop_hook_active`). */
  blocksSoFar: number;
}

/**
 * Runs every `hooks.stop` hook (a repository's only once judged, confined, as a call's hooks)
 * and judges each; the caller records and acts. The payload is bosun's shape and Claude Code's
 * Stop input side by side, so a hook written for either reads what it expects.
 */
export async function runStopHooks(
  deps: Readonly<GateDeps>,
  input: StopInput,
  /** `subagent_stop` at a delegate's end, with the delegate's agent. */
  event: "stop" | "subagent_stop" = "stop",
  agent?: string,
): Promise<StopHookVerdict[]> {
  const verdicts: StopHookVerdict[] = [];
  for (const hook of deps.hooks.filter((h) => h.event === event)) {
    const payload = {
      event,
      ...(agent ? { agent, agent_type: agent } : {}),
      session_id: deps.sessionId,
      cwd: deps.authority.cwd,
      workspace: deps.authority.workspace,
      step: input.step,
      last_message: input.lastText,
      sent_back: input.blocksSoFar,
      hook_event_name: CLAUDE_EVENT_NAMES[event],
      stop_hook_active: input.blocksSoFar > 0,
      last_assistant_message: input.lastText,
    };
    verdicts.push(judgeStopHook(hook, await runConfinedHook(hook, payload, deps)));
  }
  return verdicts;
}

/**
 * Runs every `hooks.user_prompt_submit` hook on the person's message, before the turn takes it,
 * and judges each; the caller records and acts. bosun's shape and Claude Code's side by side.
 */
export async function runPromptHooks(deps: Readonly<GateDeps>, prompt: string): Promise<PromptHookVerdict[]> {
  const verdicts: PromptHookVerdict[] = [];
  for (const hook of deps.hooks.filter((h) => h.event === "user_prompt_submit")) {
    const payload = {
      event: "user_prompt_submit",
      session_id: deps.sessionId,
      cwd: deps.authority.cwd,
      workspace: deps.authority.workspace,
      prompt,
      hook_event_name: CLAUDE_EVENT_NAMES.user_prompt_submit,
    };
    verdicts.push(judgePromptHook(hook, await runConfinedHook(hook, payload, deps)));
  }
  return verdicts;
}

/**
 * Runs every `hooks.session_start` hook as the session opens (`source` as Claude Code names it:
 * `startup` for a new session, `resume` for one taken up again) and judges each.
 */
export async function runStartHooks(
  deps: Readonly<GateDeps>,
  source: "startup" | "resume",
): Promise<StartHookVerdict[]> {
  const verdicts: StartHookVerdict[] = [];
  for (const hook of deps.hooks.filter((h) => h.event === "session_start")) {
    const payload = {
      event: "session_start",
      session_id: deps.sessionId,
      cwd: deps.authority.cwd,
      workspace: deps.authority.workspace,
      source,
      hook_event_name: CLAUDE_EVENT_NAMES.session_start,
    };
    verdicts.push(judgeStartHook(hook, await runConfinedHook(hook, payload, deps)));
  }
  return verdicts;
}

/**
 * Runs every `hooks.pre_compact` hook before a compaction (`trigger` as Claude Code names it:
 * `auto` when bosun compacts, `manual` when the person asked) and judges each.
 */
export async function runCompactHooks(
  deps: Readonly<GateDeps>,
  trigger: "auto" | "manual",
): Promise<CompactHookVerdict[]> {
  const verdicts: CompactHookVerdict[] = [];
  for (const hook of deps.hooks.filter((h) => h.event === "pre_compact")) {
    const payload = {
      event: "pre_compact",
      session_id: deps.sessionId,
      cwd: deps.authority.cwd,
      workspace: deps.authority.workspace,
      trigger,
      hook_event_name: CLAUDE_EVENT_NAMES.pre_compact,
      custom_instructions: "",
    };
    verdicts.push(judgeCompactHook(hook, await runConfinedHook(hook, payload, deps)));
  }
  return verdicts;
}
