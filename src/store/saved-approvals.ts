import type { Action } from "../contracts/requests.js";
import type { SessionStore } from "./session-store.js";

/** One "always" answer of the person: allow `action:pattern` in `project` from now on. */
export interface SavedApproval {
  id: number;
  project: string;
  action: Action;
  pattern: string;
  /** The tool whose call the person answered. */
  tool: string | null;
  sessionId: string | null;
  created: number;
}

interface Row {
  id: number;
  project: string;
  action: Action;
  pattern: string;
  tool: string | null;
  session_id: string | null;
  created: number;
}

const toApproval = (row: Row): SavedApproval => ({
  id: row.id,
  project: row.project,
  action: row.action,
  pattern: row.pattern,
  tool: row.tool,
  sessionId: row.session_id,
  created: row.created,
});

/** Saves allow rules for a project; a pattern already saved is kept as it was. Returns the rows now saved. */
export function saveApprovals(
  store: SessionStore,
  project: string,
  patterns: ReadonlyArray<{ action: Action; pattern: string }>,
  origin: { tool?: string; sessionId?: string },
  now = Date.now(),
): SavedApproval[] {
  const insert = store.db.prepare(
    "INSERT INTO saved_approvals (project, action, pattern, tool, session_id, created) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (project, action, pattern) DO NOTHING",
  );
  const select = store.db.prepare("SELECT * FROM saved_approvals WHERE project = ? AND action = ? AND pattern = ?");
  return store.atomically(() =>
    patterns.map((p) => {
      insert.run(project, p.action, p.pattern, origin.tool ?? null, origin.sessionId ?? null, now);
      return toApproval(select.get(project, p.action, p.pattern) as Row);
    }),
  );
}

/** Saved approvals, oldest first: one project's, or every project's. */
export function listApprovals(store: SessionStore, project?: string): SavedApproval[] {
  const rows =
    project === undefined
      ? store.db.prepare("SELECT * FROM saved_approvals ORDER BY project, id").all()
      : store.db.prepare("SELECT * FROM saved_approvals WHERE project = ? ORDER BY id").all(project);
  return (rows as Row[]).map(toApproval);
}

/** Deletes saved approvals by id; returns the ones that existed. */
export function revokeApprovals(store: SessionStore, ids: readonly number[]): SavedApproval[] {
  const select = store.db.prepare("SELECT * FROM saved_approvals WHERE id = ?");
  const remove = store.db.prepare("DELETE FROM saved_approvals WHERE id = ?");
  return store.atomically(() =>
    ids.flatMap((id) => {
      const row = select.get(id) as Row | undefined;
      if (!row) return [];
      remove.run(id);
      return [toApproval(row)];
    }),
  );
}
