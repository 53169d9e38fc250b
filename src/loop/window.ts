import type { ModelMessage } from "ai";
import { applyCheckpoint } from "../compaction/checkpoint.js";
import { compactSession } from "../compaction/compact.js";
import { pruneDecision, pruneToolOutputs } from "../compaction/prune.js";
import { decideCompaction, measureConversation } from "../compaction/trigger.js";
import { type LoadedConfig, whereSet } from "../config/load.js";
import type { Decision } from "../contracts/decisions.js";
import type { ResolvedModel } from "../model/resolve.js";
import type { CompactHookVerdict } from "../permission/gate/compact-hook.js";
import { projectConversation } from "../session/conversation.js";
import type { SessionStore, StoredEvent } from "../store/session-store.js";

/** Keeps a session's requests within the model's context window: pruning and compaction. */
export interface WindowDeps {
  store: SessionStore;
  sessionId: string;
  config: LoadedConfig;
  record: (decision: Decision) => void;
  signal: AbortSignal;
  /** The session's pre_compact hooks, run before a compaction (seat compaction.hook); none for a delegate. */
  preCompact?: CompactHooks;
}

/** Pre-compact hooks as the runtime hands them in: run and judged, not yet recorded. */
export type CompactHooks = (trigger: "auto" | "manual") => Promise<CompactHookVerdict[]>;

const sourceOf = (config: LoadedConfig, key: string) => whereSet(config, key) ?? "built-in";

/**
 * What the model is sent of the conversation: the events from the latest checkpoint on (its
 * summary first), with old tool outputs past compaction.prune_tokens sent as a one-line note
 * (seat context.prune, recorded when the pruned set grows; the store keeps every output).
 */
export function conversationView(
  deps: WindowDeps,
  step: number,
  prunedBefore: Set<string>,
  events: readonly StoredEvent[],
): ModelMessage[] {
  const projected = projectConversation(applyCheckpoint(events));
  const budget = deps.config.config.compaction.prune_tokens;
  const { messages, pruned } = pruneToolOutputs(projected, budget);
  const fresh = pruned.filter((p) => !prunedBefore.has(p.toolCallId));
  if (fresh.length > 0) {
    for (const p of fresh) prunedBefore.add(p.toolCallId);
    deps.record({
      ...pruneDecision(fresh, budget, sourceOf(deps.config, "compaction.prune_tokens")),
      subject: { step },
    });
  }
  return messages;
}

/**
 * Seat compaction.trigger before a request: the measured and estimated size against the window.
 * Recorded only when it compacts (asked every step, a "no" would fill the ledger). Returns an
 * error message when a compaction it started failed.
 */
export async function compactIfNeeded(
  deps: WindowDeps & { model: ResolvedModel; step: number; fixedChars: number; events: readonly StoredEvent[] },
): Promise<{ compacted: boolean; error?: string }> {
  const { config } = deps;
  const measured = measureConversation(deps.events);
  const trigger = decideCompaction({
    ...measured,
    // Nothing measured yet: the system prompt and tool definitions count too.
    charsSince: measured.charsSince + (measured.lastInputTokens === undefined ? deps.fixedChars : 0),
    ...(deps.model.info.context ? { window: deps.model.info.context } : {}),
    ...(deps.model.assumed?.includes("context") ? { windowAssumed: true } : {}),
    reserve: deps.model.info.output ?? 0,
    threshold: config.config.compaction.threshold,
    auto: config.config.compaction.auto,
    autoSource: sourceOf(config, "compaction.auto"),
    thresholdSource: sourceOf(config, "compaction.threshold"),
  });
  if (trigger.answer !== "compact") return { compacted: false };
  deps.record({ seat: "compaction.trigger", ...trigger, subject: { step: deps.step } });
  return compact(deps, "threshold");
}

/** Runs a compaction (threshold or overflow); an error message when it failed. */
export async function compact(
  deps: WindowDeps & { model: ResolvedModel; step: number },
  reason: "threshold" | "overflow",
): Promise<{ compacted: boolean; error?: string }> {
  const instructions = await compactInstructions(deps);
  const result = await compactSession({
    ...(instructions ? { instructions } : {}),
    store: deps.store,
    sessionId: deps.sessionId,
    model: deps.model,
    config: deps.config,
    signal: deps.signal,
    record: deps.record,
    reason,
    step: deps.step,
  });
  if (result.ok) return { compacted: true };
  // Nothing older than the kept exchanges: over the threshold, the request is still worth trying.
  if (result.nothing && reason === "threshold") return { compacted: false };
  return { compacted: false, error: `compaction failed: ${result.error}` };
}

/**
 * The pre_compact hooks' answers on record (seat compaction.hook); what they add to the
 * summary's instructions. `trigger`: `auto` when a turn compacts, `manual` for /compact.
 */
export async function compactInstructions(
  deps: Pick<WindowDeps, "preCompact" | "record"> & { step?: number },
  trigger: "auto" | "manual" = "auto",
): Promise<string | undefined> {
  if (!deps.preCompact) return undefined;
  const added: string[] = [];
  for (const { instructions, hook, ...verdict } of await deps.preCompact(trigger)) {
    const subject = { ...(deps.step !== undefined ? { step: deps.step } : {}), hook, event: "pre_compact" };
    deps.record({ seat: "compaction.hook", ...verdict, subject });
    if (instructions) added.push(instructions);
  }
  return added.length > 0 ? added.join("\n") : undefined;
}

/**
 * The provider refused the request as too long before any output: compact once and try the step
 * again. A second overflow in the same step, or compaction turned off, is an error that says so.
 */
export async function recoverOverflow(
  deps: WindowDeps & { model: ResolvedModel; step: number },
  overflowedThisStep: boolean,
): Promise<{ again: true } | { again: false; message: string }> {
  if (!deps.config.config.compaction.auto) {
    return {
      again: false,
      message:
        "the conversation is too long for the model's context window, and compaction.auto is false: run `bosun compact <session>`, or turn compaction on",
    };
  }
  if (overflowedThisStep) {
    return {
      again: false,
      message: "the conversation is still too long for the model's context window after compacting it",
    };
  }
  deps.record({
    seat: "compaction.trigger",
    holder: "code",
    answer: "compact",
    reasons: [
      {
        rule: "context overflow",
        detail:
          "the provider refused the request as longer than the context window, before any output: compact once and retry the step",
        decisive: true,
      },
    ],
    subject: { step: deps.step },
  });
  const done = await compact(deps, "overflow");
  if (done.compacted) return { again: true };
  return {
    again: false,
    message: `the conversation is too long for the model's context window, and ${done.error ?? "there was nothing to compact"}`,
  };
}
