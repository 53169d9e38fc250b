import { leaseHolder } from "../store/lease.js";
import type { SessionInfo, SessionStore } from "../store/session-store.js";
import { EV, type SessionCreated, type TurnEnded } from "./events.js";
import { isEvent, sqliteJournal } from "./journal.js";

/**
 * Delegates as the reading commands see them (`bosun sessions`, `bosun why --tree`): a session a
 * parent's `task` call started, told from a fork (which has a parent too) by its `session.created`
 * naming the agent, the call and the depth. Only reads.
 */

/** What a delegate's `session.created` says about it: the agent, the task, the parent's call, the depth. */
export type Delegate = NonNullable<SessionCreated["delegate"]>;

/**
 * How a delegate stands: its last turn's end (`turn.ended`), "running" while a live run holds
 * its lease, "unfinished" when a turn began after the last end and nothing holds it now (cut off).
 */
export type DelegateStatus = TurnEnded["status"] | "running" | "unfinished";

/** The delegate record of a session, or undefined for any other session (a fork, a person's own). */
export function delegateOf(store: SessionStore, sessionId: string): Delegate | undefined {
  // Only the first event: a listing asks this of every session with a parent, however long its log.
  const created = store.firstEvent(sessionId, "session.created");
  return created && isEvent(created, "session.created") ? created.data.delegate : undefined;
}

/** The delegates a session started, in the order its task calls started them (oldest first); forks left out. */
export function delegatesOf(
  store: SessionStore,
  parentId: string,
): Array<{ session: SessionInfo; delegate: Delegate }> {
  return store.children(parentId).flatMap((session) => {
    const delegate = delegateOf(store, session.id);
    return delegate ? [{ session, delegate }] : [];
  });
}

/** How the session's work stands (see DelegateStatus), or undefined before its first turn. */
export function delegateStatus(store: SessionStore, sessionId: string): DelegateStatus | undefined {
  if (leaseHolder(store, sessionId)?.alive) return "running";
  const journal = sqliteJournal(store, sessionId);
  const ended = journal.latestSeq(EV.turnEnded);
  const asked = journal.latestSeq(EV.user);
  if (asked !== undefined && (ended === undefined || asked > ended)) return "unfinished";
  if (ended === undefined) return undefined;
  return journal.eventsAfter(ended - 1, [EV.turnEnded])[0]?.data.status;
}
