import type { EventMap } from "../session/events.js";
import { sqliteJournal } from "../session/journal.js";
import { USAGE_EVENT } from "../session/usage.js";
import type { SessionStore } from "../store/session-store.js";
import type { ResolvedModel } from "./resolve.js";
import { addUsage, costOf, type Usage, ZERO_USAGE } from "./usage.js";

/** One request's usage as recorded; `cost` in US dollars, when the model's prices are known. */
type UsageEvent = EventMap[typeof USAGE_EVENT];

/** Appends the tokens one model request used, with its cost when the prices are known; returns that cost. */
export function recordUsage(
  store: SessionStore,
  sessionId: string,
  model: ResolvedModel,
  usage: Usage,
): number | undefined {
  const cost = costOf(usage, model.info);
  const data: UsageEvent = { model: model.ref, ...usage, ...(cost !== undefined ? { cost } : {}) };
  sqliteJournal(store, sessionId).append(USAGE_EVENT, data);
  return cost;
}

export interface UsageSummary extends Usage {
  requests: number;
  /** Sum of known costs; `costUnknown` counts requests whose model has no prices. */
  cost: number;
  costUnknown: number;
}

/**
 * The session's token and cost totals: a projection of its `model.usage` events — of every
 * request (steps, titles, summaries, the smart mode's judge), or of those made since `sinceMs`
 * (one run's; a fork's copies keep the time they first happened, so they are not counted).
 */
export function summarizeUsage(store: SessionStore, sessionId: string, sinceMs?: number): UsageSummary {
  let total: Usage = ZERO_USAGE;
  let cost = 0;
  let costUnknown = 0;
  const events = sqliteJournal(store, sessionId)
    .events(USAGE_EVENT)
    .filter((event) => sinceMs === undefined || event.at >= sinceMs);
  for (const { data } of events) {
    total = addUsage(total, {
      input: data.input ?? 0,
      output: data.output ?? 0,
      cacheRead: data.cacheRead ?? 0,
      cacheWrite: data.cacheWrite ?? 0,
      ...(data.reasoning ? { reasoning: data.reasoning } : {}),
    });
    if (typeof data.cost === "number") cost += data.cost;
    else costUnknown++;
  }
  return { ...total, requests: events.length, cost, costUnknown };
}

/** A summary in words, as `bosun sessions show` and the interactive /cost print it. */
export function describeUsage(usage: UsageSummary): { tokens: string; cost: string } {
  const n = (value: number) => value.toLocaleString("en-US");
  return {
    tokens: `${n(usage.input)} in (cache read ${n(usage.cacheRead)}, write ${n(usage.cacheWrite)}), ${n(usage.output)} out${usage.reasoning ? ` (${n(usage.reasoning)} reasoning)` : ""}, ${usage.requests} request(s)`,
    cost:
      usage.requests === 0
        ? "-"
        : `$${usage.cost.toFixed(4)}${usage.costUnknown > 0 ? ` (+ ${usage.costUnknown} request(s) of models with unknown prices)` : ""}`,
  };
}
