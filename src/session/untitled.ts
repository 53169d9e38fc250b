import { DECISION_EVENT } from "../seats/record.js";
import type { SessionStore } from "../store/session-store.js";
import { EV } from "./events.js";
import { sqliteJournal } from "./journal.js";
import type { TargetAnswer } from "./target.js";

/** A new session (not a forked one) with no title and no message yet: its first turn names it. */
export function awaitsTitle(store: SessionStore, sessionId: string): boolean {
  // A fork's log starts with its original's decisions (a copy): it is named after the original.
  const journal = sqliteJournal(store, sessionId);
  const created = journal.events("session.created")[0]?.data;
  if (created?.forked_from !== undefined) return false;
  const decisions = journal.events(DECISION_EVENT).map((event) => event.data);
  // Created new, and not named yet: the interactive session may reopen it (a custom command's
  // own model) before its first turn, so the latest target can be a resume of a new session.
  const first = decisions.find((decision) => decision.seat === "session.target");
  const named = decisions.some((decision) => decision.seat === "session.title");
  const talked = journal.latestSeq(EV.user) !== undefined;
  return (first?.answer as TargetAnswer | undefined)?.mode === "new" && !named && !talked;
}
