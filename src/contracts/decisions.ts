/** Who may answer a seat's question. */
export const HOLDERS = ["config", "code", "model", "person", "hook", "policy"] as const;
export type Holder = (typeof HOLDERS)[number];

/**
 * What happens when the seat cannot be answered properly: `closed` refuses, `soft` takes a
 * safe default and records that it did, `open` proceeds — and must say why that is acceptable.
 */
export type FailMode = "closed" | "soft" | "open";

interface SeatBase {
  /** `stage.name`, e.g. `session.target`. */
  id: string;
  question: string;
  holders: readonly Holder[];
  /** The answer when nobody with more authority speaks. */
  default: string;
  /** Config keys that influence the answer. */
  config: readonly string[];
}

export type Seat = (SeatBase & { fail: "closed" | "soft" }) | (SeatBase & { fail: "open"; openBecause: string });

/** One step of the reasoning behind an answer. */
export interface Reason {
  /** What was considered: a rule, a precedence step, a layer. */
  rule: string;
  /** What it said or found. */
  detail?: string;
  /** Where it came from: a config file, an environment variable, a flag. */
  source?: string;
  key?: string;
  line?: number;
  /** Marks the reason that settled the answer. */
  decisive?: boolean;
}

/** What a decision is about. */
export interface Subject {
  step?: number;
  call?: string;
  [more: string]: unknown;
}

/** What a decider returns; the caller records it. */
export interface Answer<T = unknown> {
  holder: Holder;
  answer: T;
  reasons: Reason[];
}

/**
 * An answer the person gave through another surface than this terminal (a server's client, an
 * editor), with a reason saying which: the ledger keeps where every answer came from.
 */
export function answeredThrough<T extends Answer<unknown>>(answer: T, via: string | undefined): T {
  if (!via) return answer;
  return { ...answer, reasons: [...answer.reasons, { rule: "answered through", detail: via }] };
}

export interface Decision<T = unknown> extends Answer<T> {
  seat: string;
  subject?: Subject;
}

/** A decision as read back from the ledger. */
export interface RecordedDecision extends Decision {
  seq: number;
  at: string;
}
