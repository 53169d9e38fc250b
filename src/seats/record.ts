import type { Decision, RecordedDecision } from "../contracts/decisions.js";
import { findSeat } from "./catalog.js";

export const DECISION_EVENT = "decision";

/**
 * The part of the session's journal the ledger writes and reads (store/session-store.ts's
 * SessionStore has it): named here, since seats/ sits below the store.
 */
export interface DecisionJournal {
  append(sessionId: string, type: string, data: unknown): { seq: number; at: number };
  events(sessionId: string, type?: string): ReadonlyArray<{ seq: number; at: number; data: unknown }>;
}

/**
 * Appends a decision to the session's ledger. A seat that is not in the catalog, or a holder
 * the seat does not admit, is a bug in bosun: it throws rather than record something untrue.
 */
export function recordDecision(store: DecisionJournal, sessionId: string, decision: Decision): RecordedDecision {
  const seat = findSeat(decision.seat);
  if (!seat) throw new Error(`decision for undeclared seat "${decision.seat}"`);
  if (!seat.holders.includes(decision.holder)) {
    throw new Error(`seat ${seat.id} cannot be held by ${decision.holder} (holders: ${seat.holders.join(", ")})`);
  }
  const data: Decision = {
    seat: decision.seat,
    holder: decision.holder,
    answer: decision.answer,
    reasons: decision.reasons,
    ...(decision.subject ? { subject: decision.subject } : {}),
  };
  const event = store.append(sessionId, DECISION_EVENT, data);
  return { ...data, seq: event.seq, at: new Date(event.at).toISOString() };
}

/** The session's decisions in the order they were made. */
export function readDecisions(store: DecisionJournal, sessionId: string): RecordedDecision[] {
  return store.events(sessionId, DECISION_EVENT).map((event) => ({
    ...(event.data as Decision),
    seq: event.seq,
    at: new Date(event.at).toISOString(),
  }));
}
