import type { ModelMessage } from "ai";
import { type LoadedConfig, whereSet } from "../config/load.js";
import type { Decision, Reason } from "../contracts/decisions.js";
import { requestModel } from "../model/request.js";
import { maxOutputOf, type ResolvedModel, resolveModel } from "../model/resolve.js";
import { costOf, type Usage } from "../model/usage.js";
import { projectConversation } from "../session/conversation.js";
import { latestTodos, todoLines } from "../session/todos.js";
import { USAGE_EVENT } from "../session/usage.js";
import type { SessionStore, StoredEvent } from "../store/session-store.js";
import {
  CHECKPOINT_EVENT,
  type CompactionCheckpoint,
  type CompactionReason,
  liveEvents,
  SUMMARY_PREFIX,
} from "./checkpoint.js";
import { estimateMessages, estimateTokens } from "./estimate.js";
import { chooseKept } from "./keep.js";
import {
  asTranscript,
  checkSummary,
  retryInstruction,
  SUMMARY_INSTRUCTION,
  SUMMARY_SECTIONS,
  SUMMARY_SYSTEM,
} from "./summary.js";

export interface CompactDeps {
  store: SessionStore;
  sessionId: string;
  /** The session's model; `compaction.model`, when set, writes the summary instead. */
  model: ResolvedModel;
  config: LoadedConfig;
  signal?: AbortSignal;
  /** Appends a decision to the ledger (compaction.summary; model.retry and model.fallback of the request). */
  record: (decision: Decision) => void;
  reason: CompactionReason;
  step?: number;
  /** Newest tokens kept verbatim; default compaction.keep_tokens. */
  keepTokens?: number;
  /** What pre_compact hooks add to the summary's instructions (seat compaction.hook). */
  instructions?: string;
  /** Injected in tests. */
  requestModel?: typeof requestModel;
  env?: NodeJS.ProcessEnv;
}

export type CompactResult =
  /** `seq`: the checkpoint event's; `keptMessages`: how many messages stay verbatim. */
  | { ok: true; checkpoint: CompactionCheckpoint; seq: number; keptMessages: number }
  /** `nothing`: there was no message to summarise; nothing was asked or written but the decision. */
  | { ok: false; error: string; nothing?: true };

/**
 * The model that writes a compaction's summary: `compaction.model` when set, else the session's
 * own. A configured model that cannot be used is a problem to report, never a silent fallback.
 */
export function compactionModel(
  config: LoadedConfig,
  sessionModel: ResolvedModel,
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; model: ResolvedModel; configured: boolean } | { ok: false; problem: string } {
  const ref = config.config.compaction.model;
  if (!ref) return { ok: true, model: sessionModel, configured: false };
  const resolved = resolveModel(ref, config, env);
  if (!resolved.ok)
    return { ok: false, problem: `compaction.model "${ref}" cannot be used: ${resolved.problem}; ${resolved.fix}` };
  return { ok: true, model: resolved.model, configured: true };
}

/**
 * Seat `compaction.summary`: summarises the session's older history into a checkpoint. The
 * newest exchanges within keep_tokens stay verbatim (cut at a person's message); everything the
 * model reads before them — an earlier summary included — is sent to the summary model with no
 * tools, and code checks the reply has every section. A reply missing some is asked once more,
 * saying which; still missing, the compaction fails and nothing is written but the decision.
 * On success a `compaction.checkpoint` event is appended; no event is ever deleted.
 */
export async function compactSession(deps: CompactDeps): Promise<CompactResult> {
  const { store, sessionId, config } = deps;
  const subject = deps.step !== undefined ? { subject: { step: deps.step } } : {};
  const keepTokens = deps.keepTokens ?? config.config.compaction.keep_tokens;
  const why: Reason = { rule: "compaction asked", detail: reasonText(deps.reason) };
  const fail = (error: string, reasons: Reason[]): CompactResult => {
    deps.record({
      seat: "compaction.summary",
      holder: "code",
      answer: "failed",
      reasons: [why, ...reasons, { rule: "compaction failed", detail: error, decisive: true }],
      ...subject,
    });
    return { ok: false, error };
  };

  const events = store.events(sessionId);
  const keptFrom = chooseKept(events, keepTokens);
  if (keptFrom === undefined) {
    deps.record({
      seat: "compaction.summary",
      holder: "code",
      answer: "nothing",
      reasons: [why, { rule: "nothing to summarise", detail: "no message before the kept part", decisive: true }],
      ...subject,
    });
    return { ok: false, error: "nothing to compact: the session has no messages to summarise", nothing: true };
  }

  const chosen = compactionModel(config, deps.model, deps.env);
  if (!chosen.ok) return fail(chosen.problem, []);
  const modelReason: Reason = {
    rule: "summary model",
    detail: chosen.configured ? chosen.model.ref : `${chosen.model.ref} (the session's model)`,
    ...(chosen.configured ? { key: "compaction.model", ...originOf(config, "compaction.model") } : {}),
  };

  const { summary: earlier, live } = liveEvents(events);
  const before = projectConversation(earlier ? [earlier, ...live] : live);
  const tokensBefore = estimateMessages(before);
  const toSummarise: StoredEvent[] = [...(earlier ? [earlier] : []), ...live.filter((e) => e.seq < keptFrom)];
  const kept = live.filter((e) => e.seq >= keptFrom);
  const keptMessages = projectConversation(kept);
  const keptTokens = estimateMessages(keptMessages);
  const keptReason: Reason = {
    rule: "kept verbatim",
    detail:
      keptMessages.length === 0
        ? `nothing: the newest exchange is the only one or over compaction.keep_tokens ${keepTokens}`
        : `from event ${keptFrom}: ~${keptTokens} tokens, within compaction.keep_tokens ${keepTokens}`,
    key: "compaction.keep_tokens",
    ...originOf(config, "compaction.keep_tokens"),
  };

  const conversation: ModelMessage[] = [
    ...asTranscript(projectConversation(toSummarise)),
    {
      role: "user",
      content: deps.instructions
        ? `${SUMMARY_INSTRUCTION}\n\nAlso follow these instructions for the summary:\n${deps.instructions}`
        : SUMMARY_INSTRUCTION,
    },
  ];
  const asker = summaryAsker(deps, chosen.model);
  const written = await writeSummary(asker, conversation);
  if (!written.ok) return fail(written.error, [modelReason, ...written.reasons]);
  const { retried } = written;
  const summary = withTodos(written.summary, events, kept);
  const model = asker.answered();

  const tokensAfter = estimateTokens(`${SUMMARY_PREFIX}${summary}`) + keptTokens;
  const checkpoint: CompactionCheckpoint = {
    summary,
    keptFrom,
    tokensBefore,
    tokensAfter,
    model: model.ref,
    reason: deps.reason,
  };
  const event = store.append(sessionId, CHECKPOINT_EVENT, checkpoint);
  deps.record({
    seat: "compaction.summary",
    holder: "model",
    answer: { tokensBefore, tokensAfter, kept_from: keptFrom, model: model.ref },
    reasons: [
      why,
      {
        ...modelReason,
        detail: model.ref === chosen.model.ref ? modelReason.detail : `${model.ref} (after a fallback)`,
      },
      keptReason,
      ...(retried ? [missingReason(retried, "first reply")] : []),
      {
        rule: "sections checked",
        detail: `${SUMMARY_SECTIONS.join(", ")}: all present and non-empty${retried ? " (second reply)" : ""}`,
        decisive: true,
      },
      { rule: "checkpoint", detail: `event ${event.seq}; the full history stays in the session store` },
    ],
    ...subject,
  });
  return { ok: true, checkpoint, seq: event.seq, keptMessages: keptMessages.length };
}

type SummaryAsker = {
  /** One summary request: the reply's text, or why there is none. */
  ask: (messages: ModelMessage[]) => Promise<{ text: string; error?: undefined } | { error: string }>;
  /** The model that answered last: after a fallback (recorded by model.fallback), the summary's. */
  answered: () => ResolvedModel;
};

function summaryAsker(deps: CompactDeps, chosen: ResolvedModel): SummaryAsker {
  const request = deps.requestModel ?? requestModel;
  const { store, sessionId, config } = deps;
  let model = chosen;
  return {
    answered: () => model,
    ask: async (messages) => {
      const result = await request({
        model,
        config,
        system: SUMMARY_SYSTEM,
        messages,
        ...maxOutputOf(model),
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...(deps.step !== undefined ? { step: deps.step } : {}),
        record: deps.record,
        onUsage: (used, usage) => recordSummaryUsage(store, sessionId, used, usage),
        ...(deps.env ? { env: deps.env } : {}),
      });
      model = result.model;
      if (result.status === "complete") return { text: result.text };
      if (result.status === "aborted") return { error: "the summary request was cancelled" };
      return { error: `the summary request failed: ${result.error.class}: ${result.error.message}` };
    },
  };
}

/**
 * Asks for the summary and checks it has every section; a reply missing some is asked once more,
 * saying which. Fails with the reasons to record when a request fails or the second reply still
 * lacks a section. `retried`: the sections the first reply lacked.
 */
async function writeSummary(
  asker: SummaryAsker,
  conversation: ModelMessage[],
): Promise<{ ok: true; summary: string; retried?: string[] } | { ok: false; error: string; reasons: Reason[] }> {
  const first = await asker.ask(conversation);
  if (first.error !== undefined) return { ok: false, error: first.error, reasons: [] };
  const check = checkSummary(first.text);
  if (check.ok) return { ok: true, summary: check.summary };
  const retried = check.missing;
  const again = await asker.ask([
    ...conversation,
    ...(first.text.trim() !== "" ? [{ role: "assistant" as const, content: first.text }] : []),
    { role: "user", content: retryInstruction(check.missing) },
  ]);
  if (again.error !== undefined) {
    return { ok: false, error: again.error, reasons: [missingReason(retried, "first reply")] };
  }
  const recheck = checkSummary(again.text);
  if (!recheck.ok) {
    return {
      ok: false,
      error: `the summary from ${asker.answered().ref} still lacks ${recheck.missing.map((s) => `"## ${s}"`).join(", ")} after asking again; the history was left as it was`,
      reasons: [missingReason(retried, "first reply"), missingReason(recheck.missing, "second reply")],
    };
  }
  return { ok: true, summary: recheck.summary, retried };
}

function reasonText(reason: CompactionReason): string {
  switch (reason) {
    case "threshold":
      return "threshold: the conversation neared the context window (compaction.trigger)";
    case "overflow":
      return "overflow: the provider said the request exceeded the context window";
    case "manual":
      return "manual: bosun compact";
  }
}

function missingReason(missing: readonly string[], which: string): Reason {
  return {
    rule: "sections missing",
    detail: `${which} lacked ${missing.map((s) => `"## ${s}"`).join(", ")}`,
  };
}

function originOf(config: LoadedConfig, key: string): { source?: string } {
  const where = whereSet(config, key);
  return where ? { source: where } : {};
}

/**
 * The summary request's tokens, as a `model.usage` event like any request (the session's cost
 * counts them), marked `for: "compaction.summary"`: they measure the old history, not the
 * conversation the next request sends, so a size estimate must not start from them.
 */
function recordSummaryUsage(store: SessionStore, sessionId: string, model: ResolvedModel, usage: Usage): void {
  const cost = costOf(usage, model.info);
  store.append(sessionId, USAGE_EVENT, {
    model: model.ref,
    ...usage,
    ...(cost !== undefined ? { cost } : {}),
    for: "compaction.summary",
  });
}

/**
 * The todo list is the agent's plan: when its latest call is among what was summarised, the
 * list as it stood is added to the summary whole, so the plan outlives the compaction.
 */
function withTodos(summary: string, events: readonly StoredEvent[], kept: readonly StoredEvent[]): string {
  const items = latestTodos(events);
  if (!items || items.length === 0 || latestTodos(kept) !== undefined) return summary;
  return `${summary}\n\n## Todo list (as it stood)\n${todoLines(items)}`;
}
