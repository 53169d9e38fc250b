import type { Answer, Reason } from "../contracts/decisions.js";
import { EV } from "../session/events.js";
import { isEvent, type TypedEvent } from "../session/journal.js";
import { withoutReverted } from "../session/turns.js";
import { USAGE_EVENT } from "../session/usage.js";
import type { StoredEvent } from "../store/session-store.js";
import { applyCheckpoint, latestCheckpoint } from "./checkpoint.js";
import { CHARS_PER_TOKEN } from "./estimate.js";
import { eventChars } from "./keep.js";

export interface TriggerInput {
  /** Input tokens the provider reported for the last request, when one was measured. */
  lastInputTokens?: number;
  /** Output tokens of that request's reply: it is input from the next request on. */
  lastOutputTokens?: number;
  /** Characters added to the conversation since that request (tool results, notices, messages). */
  charsSince: number;
  /** The model's context window in tokens; undefined when it is not known. */
  window?: number;
  /** Set when the window is bosun's assumption for a model nobody described (model/catalog.ts ASSUMED_LIMITS). */
  windowAssumed?: boolean;
  /** Tokens kept free for the reply (the model's output limit). */
  reserve: number;
  /** compaction.threshold: the share of the window, less the reserve, at which to compact. */
  threshold: number;
  /** compaction.auto. */
  auto: boolean;
  /** Where compaction.auto / compaction.threshold were set (a file:line, or "built-in"). */
  autoSource?: string;
  thresholdSource?: string;
}

export type TriggerAnswer = "compact" | "no";

/**
 * Seat `compaction.trigger`, asked before each model request: compact when the estimate — the
 * last measured input and output tokens plus about a token per 4 characters added since —
 * reaches compaction.threshold of the window less the output reserve. An unknown window never
 * triggers (code); compaction.auto false never compacts, so an overflow is then an error (config).
 */
export function decideCompaction(input: TriggerInput): Answer<TriggerAnswer> {
  const auto: Reason = {
    rule: "compaction.auto",
    detail: String(input.auto),
    key: "compaction.auto",
    ...(input.autoSource ? { source: input.autoSource } : {}),
  };
  if (!input.auto) {
    return {
      holder: "config",
      answer: "no",
      reasons: [
        {
          ...auto,
          detail: "false: never compacts; a request over the context window is then an error",
          decisive: true,
        },
      ],
    };
  }
  const measuredIn = input.lastInputTokens ?? 0;
  const measuredOut = input.lastOutputTokens ?? 0;
  const since = Math.ceil(Math.max(0, input.charsSince) / CHARS_PER_TOKEN);
  const estimate = measuredIn + measuredOut + since;
  const measured =
    input.lastInputTokens === undefined
      ? "nothing measured yet"
      : `last measured ${measuredIn} in + ${measuredOut} out`;
  const estimateReason: Reason = {
    rule: "estimate",
    detail: `${estimate} tokens (${measured}; ~${since} from ${input.charsSince} characters since, 4 a token)`,
  };
  if (input.window === undefined || !(input.window > 0)) {
    return {
      holder: "code",
      answer: "no",
      reasons: [
        auto,
        estimateReason,
        {
          rule: "context window unknown",
          detail: "the model's context window is not in the catalog or config: compaction is never triggered by size",
          decisive: true,
        },
      ],
    };
  }
  const room = input.window - input.reserve;
  if (room <= 0) {
    return {
      holder: "code",
      answer: "no",
      reasons: [
        auto,
        estimateReason,
        {
          rule: "no room",
          detail: `the output reserve ${input.reserve} fills the whole window ${input.window}: compacting cannot help`,
          decisive: true,
        },
      ],
    };
  }
  const limit = Math.floor(room * input.threshold);
  const reached = estimate >= limit;
  return {
    holder: "config",
    answer: reached ? "compact" : "no",
    reasons: [
      auto,
      estimateReason,
      {
        rule: "limit",
        detail: `${limit} tokens = (window ${input.window}${input.windowAssumed ? " assumed, the model is not in the catalog or config" : ""} - output reserve ${input.reserve}) × threshold ${input.threshold}`,
        key: "compaction.threshold",
        ...(input.thresholdSource ? { source: input.thresholdSource } : {}),
      },
      {
        rule: reached ? "estimate reaches the limit" : "estimate below the limit",
        detail: `${estimate} ${reached ? ">=" : "<"} ${limit}`,
        decisive: true,
      },
    ],
  };
}

/**
 * The measurements decideCompaction takes, read from the session's events: the last request's
 * measured tokens (its `model.usage` event after the latest checkpoint; a summary request's own
 * usage does not count, it measured the old history), and the characters of what the model
 * reads that came after it. With nothing measured since the checkpoint, all that the model reads
 * (the summary and the kept events) is counted in characters. The system prompt and tool
 * definitions are not events: a caller with nothing measured adds their characters.
 */
export function measureConversation(events: readonly StoredEvent[]): {
  lastInputTokens?: number;
  lastOutputTokens?: number;
  charsSince: number;
} {
  const view = applyCheckpoint(events);
  const from = latestCheckpoint(events)?.seq ?? 0;
  // An undone turn's requests measured a conversation the model no longer reads.
  const live = withoutReverted(events);
  let measured: TypedEvent<typeof USAGE_EVENT> | undefined;
  for (let i = live.length - 1; i >= 0; i--) {
    const event = live[i] as StoredEvent;
    if (event.seq <= from) break;
    if (isEvent(event, USAGE_EVENT) && event.data.for === undefined) {
      measured = event;
      break;
    }
  }
  if (!measured) return { charsSince: view.reduce((sum, event) => sum + eventChars(event), 0) };
  const { seq, data: usage } = measured;
  const after = view.filter((event) => event.seq > seq);
  // The reply that request measured is its output: counted as lastOutputTokens, not again in characters.
  const reply = after.findIndex((event) => event.type === EV.assistant);
  return {
    lastInputTokens: usage.input ?? 0,
    lastOutputTokens: usage.output ?? 0,
    charsSince: after.reduce((sum, event, i) => (i === reply ? sum : sum + eventChars(event)), 0),
  };
}
