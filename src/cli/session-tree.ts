import type { Delegate } from "../session/delegates.js";
import type { SessionInfo } from "../store/session-store.js";

/** A session's row in the listing: how deep under its listed parent, and whether it is a delegate whose parent is not listed. */
export interface SessionRow {
  kind: "session";
  session: SessionInfo;
  depth: number;
  delegate?: Delegate;
  /** A delegate listed at the top because its parent is not in the listing (another directory, deleted). */
  orphan: boolean;
}

/** Where a parent's earlier delegates were left out: how many, at what depth. */
export interface HiddenRow {
  kind: "hidden";
  parent: string;
  depth: number;
  count: number;
}

export type TreeRow = SessionRow | HiddenRow;

/**
 * The listing as a tree: each delegate right under its parent (recursively, in the order they
 * were started), the other sessions — forks too, which keep their parent only as a column — at
 * the top in the order given (newest first). A delegate whose parent is not listed stays at the
 * top, an orphan. A parent shows at most `perParent` of its delegates, the latest, after one
 * row saying how many earlier ones were left out: a session that delegated a hundred times is
 * still one screen, and each delegate counts against its own parent, never against the listing.
 * Pure.
 */
export function sessionTree(
  sessions: readonly SessionInfo[],
  delegates: ReadonlyMap<string, Delegate>,
  perParent: number = Number.POSITIVE_INFINITY,
): TreeRow[] {
  const listed = new Set(sessions.map((s) => s.id));
  const nested = (s: SessionInfo) => delegates.has(s.id) && s.parentId !== null && listed.has(s.parentId);
  const children = new Map<string, SessionInfo[]>();
  for (const session of sessions) {
    if (!nested(session)) continue;
    const parent = session.parentId as string;
    children.set(parent, [...(children.get(parent) ?? []), session]);
  }
  for (const list of children.values()) list.sort((a, b) => a.created - b.created || a.id.localeCompare(b.id));
  const rows: TreeRow[] = [];
  const seen = new Set<string>();
  const visit = (session: SessionInfo, depth: number, orphan: boolean) => {
    if (seen.has(session.id)) return;
    seen.add(session.id);
    const delegate = delegates.get(session.id);
    rows.push({ kind: "session", session, depth, orphan, ...(delegate ? { delegate } : {}) });
    const under = children.get(session.id) ?? [];
    const hidden = Math.max(0, under.length - perParent);
    if (hidden > 0) rows.push({ kind: "hidden", parent: session.id, depth: depth + 1, count: hidden });
    for (const child of under.slice(0, hidden)) leaveOut(child);
    for (const child of under.slice(hidden)) visit(child, depth + 1, false);
  };
  // A delegate left out takes its own delegates with it.
  const leaveOut = (session: SessionInfo) => {
    if (seen.has(session.id)) return;
    seen.add(session.id);
    for (const child of children.get(session.id) ?? []) leaveOut(child);
  };
  for (const session of sessions) if (!nested(session)) visit(session, 0, delegates.has(session.id));
  // Parents that lead round in a circle (only a hand-made database has them) reach no root: shown at the top.
  for (const session of sessions) visit(session, 0, true);
  return rows;
}
