import type { SessionInfo, SessionStore } from "../store/session-store.js";
import { type Delegate, type DelegateStatus, delegateOf, delegateStatus } from "./delegates.js";

/*
 * The JSON shape of a session: public contract, the same for `bosun sessions --json` and the
 * server's API (a decision's is in decisions-json.ts).
 */

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** What the listing knows of a delegate (a session a parent's `task` call started); null for any other. */
export interface DelegateFacts {
  delegate: Delegate | null;
  status: DelegateStatus | null;
}

const NOT_A_DELEGATE: DelegateFacts = { delegate: null, status: null };

/**
 * The JSON shape of a session in listings: public contract. `delegate` ({agent, description?,
 * call, depth}) and `status` (its last turn's end, or running, unfinished) are a delegate's;
 * null for every other session (a fork has `parent` but no `delegate`).
 */
export function sessionJson(s: SessionInfo, facts: DelegateFacts = NOT_A_DELEGATE) {
  return {
    id: s.id,
    title: s.title,
    directory: s.directory,
    parent: s.parentId,
    delegate: facts.delegate,
    status: facts.status,
    created: isoTime(s.created),
    updated: isoTime(s.updated),
  };
}

/** A session's delegate facts, read from its log (only a session with a parent can be one). */
export function delegateFacts(store: SessionStore, session: SessionInfo): DelegateFacts {
  const delegate = session.parentId ? delegateOf(store, session.id) : undefined;
  if (!delegate) return NOT_A_DELEGATE;
  return { delegate, status: delegateStatus(store, session.id) ?? null };
}
