import type { LedgerEntry } from "../seats/ledger-group.js";
import { DECISION_EVENT } from "../seats/record.js";
import type { SessionStore } from "../store/session-store.js";
import { EV } from "./events.js";
import { type JournalEvent, sqliteJournal } from "./journal.js";

/**
 * The session's log as the ledger view reads it (seats/ledger-group.ts): decisions, the
 * person's messages, turn ends and the calls the model asked for, in log order.
 */
export function readLedger(store: SessionStore, sessionId: string): LedgerEntry[] {
  const journal = sqliteJournal(store, sessionId);
  const copiedFrom = forkOrigin(store, sessionId);
  const entries: LedgerEntry[] = [];
  // Only the events it needs, by type (a long session's call outputs are most of its log), in log order.
  const events = ([DECISION_EVENT, EV.user, EV.turnEnded, EV.assistant] as const)
    .flatMap((type): JournalEvent[] => journal.events(type))
    .sort((a, b) => a.seq - b.seq);
  for (const event of events) {
    if (event.type === DECISION_EVENT) {
      const decision = { ...event.data, seq: event.seq, at: new Date(event.at).toISOString() };
      entries.push({ kind: "decision", decision, copiedFrom: copiedFrom(event.seq) });
    } else if (event.type === EV.user) {
      entries.push({ kind: "message", text: String(event.data.text ?? "") });
    } else if (event.type === EV.turnEnded) {
      entries.push({ kind: "turn-end" });
    } else if (event.type === EV.assistant) {
      const calls = event.data.toolCalls ?? [];
      if (calls.length > 0) {
        entries.push({ kind: "calls", calls: calls.map((c) => ({ id: c.id, tool: c.name, input: c.input })) });
      }
    }
  }
  return entries;
}

/**
 * A fork's log starts with copies of the original's events; `session.created` says how many
 * (`copied`): for each seq, the session it was copied from, or null for the session's own.
 */
export function forkOrigin(store: SessionStore, sessionId: string): (seq: number) => string | null {
  const created = sqliteJournal(store, sessionId).events("session.created")[0]?.data;
  return (seq) => (created?.forked_from && seq <= 1 + (created.copied ?? 0) ? created.forked_from : null);
}
