import type { SessionStore } from "./session-store.js";

/** The person's lasting trust in what a repository's bosun.json loosens, for exactly that content. */
export interface TrustedProject {
  id: number;
  project: string;
  fingerprint: string;
  items: string[];
  created: number;
}

interface Row {
  id: number;
  project: string;
  fingerprint: string;
  items: string;
  created: number;
}

const toTrusted = (row: Row): TrustedProject => ({
  id: row.id,
  project: row.project,
  fingerprint: row.fingerprint,
  items: JSON.parse(row.items) as string[],
  created: row.created,
});

export function isTrusted(store: SessionStore, project: string, fingerprint: string): boolean {
  return (
    store.db
      .prepare("SELECT 1 FROM trusted_projects WHERE project = ? AND fingerprint = ?")
      .get(project, fingerprint) !== undefined
  );
}

export function trustProject(
  store: SessionStore,
  project: string,
  fingerprint: string,
  items: string[],
  now = Date.now(),
): void {
  store.db
    .prepare(
      "INSERT INTO trusted_projects (project, fingerprint, items, created) VALUES (?, ?, ?, ?) ON CONFLICT (project, fingerprint) DO NOTHING",
    )
    .run(project, fingerprint, JSON.stringify(items), now);
}

export function listTrusted(store: SessionStore, project?: string): TrustedProject[] {
  const rows =
    project === undefined
      ? store.db.prepare("SELECT * FROM trusted_projects ORDER BY project, id").all()
      : store.db.prepare("SELECT * FROM trusted_projects WHERE project = ? ORDER BY id").all(project);
  return (rows as Row[]).map(toTrusted);
}

export function revokeTrusted(store: SessionStore, ids: readonly number[]): TrustedProject[] {
  const select = store.db.prepare("SELECT * FROM trusted_projects WHERE id = ?");
  const remove = store.db.prepare("DELETE FROM trusted_projects WHERE id = ?");
  return store.atomically(() =>
    ids.flatMap((id) => {
      const row = select.get(id) as Row | undefined;
      if (!row) return [];
      remove.run(id);
      return [toTrusted(row)];
    }),
  );
}
