import { type Decision, HOLDERS, type RecordedDecision } from "../contracts/decisions.js";
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

/**
 * The session's decisions in the order they were made. Each is checked to be one (seats/ sits
 * below the typed journal, so what it reads comes untyped): an event that is not would render as
 * a decision nobody made, so it stops the read instead.
 */
export function readDecisions(store: DecisionJournal, sessionId: string): RecordedDecision[] {
  return store.events(sessionId, DECISION_EVENT).map((event) => {
    if (!isDecision(event.data)) throw new Error(`session ${sessionId}: event ${event.seq} is not a decision`);
    return { ...event.data, seq: event.seq, at: new Date(event.at).toISOString() };
  });
}

/** The shape recordDecision writes (and an import is checked for, session/schemas.ts). */
function isDecision(data: unknown): data is Decision {
  return (
    typeof data === "object" &&
    data !== null &&
    "seat" in data &&
    typeof data.seat === "string" &&
    "holder" in data &&
    (HOLDERS as readonly unknown[]).includes(data.holder) &&
    "answer" in data &&
    "reasons" in data &&
    Array.isArray(data.reasons)
  );
}
