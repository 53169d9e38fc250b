import { UsageError } from "../errors.js";
import { closest } from "../util/closest.js";
import type { SessionInfo, SessionStore } from "./session-store.js";

/**
 * Finds a session by full id, unique id prefix, or exact title — in that order. Anything else
 * is an error listing the closest sessions: a typo never starts a silent new session.
 */
export function findSession(store: SessionStore, ref: string): SessionInfo {
  const wanted = ref.trim();
  if (wanted === "") throw new UsageError("a session id, id prefix or title is required");
  const exact = store.get(wanted.toUpperCase()) ?? store.get(wanted);
  if (exact) return exact;

  const all = store.list();
  const byPrefix = all.filter((s) => s.id.toLowerCase().startsWith(wanted.toLowerCase()));
  if (byPrefix.length === 1) return byPrefix[0] as SessionInfo;
  if (byPrefix.length > 1) {
    throw new UsageError(`"${ref}" matches ${byPrefix.length} sessions; give more of the id:\n${listing(byPrefix)}`);
  }

  const byTitle = all.filter((s) => s.title !== "" && s.title === wanted);
  if (byTitle.length === 1) return byTitle[0] as SessionInfo;
  if (byTitle.length > 1) {
    throw new UsageError(`"${ref}" is the title of ${byTitle.length} sessions; use an id:\n${listing(byTitle)}`);
  }

  const keys = all.flatMap((s) => [s.id, s.title].filter((k) => k !== ""));
  const near = new Set(closest(wanted, keys, 5));
  const nearest = all.filter((s) => near.has(s.id) || near.has(s.title));
  const hint =
    nearest.length > 0 ? `; closest:\n${listing(nearest)}` : all.length === 0 ? "; there are no sessions yet" : "";
  throw new UsageError(`no session matches "${ref}"${hint}`);
}

function listing(sessions: SessionInfo[]): string {
  return sessions
    .slice(0, 10)
    .map((s) => `  ${s.id}  ${s.title || "(untitled)"}  ${s.directory}`)
    .join("\n");
}
