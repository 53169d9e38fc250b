import { UsageError } from "../errors.js";
import { closest, editDistance } from "../util/closest.js";
import type { SessionInfo, SessionStore } from "./session-store.js";

/** How a ref named its session: the whole id (any case), a unique id prefix, or the exact title. */
export type MatchedBy = "id" | "prefix" | "title";

export interface SessionMatch {
  session: SessionInfo;
  by: MatchedBy;
}

/** At most this many sessions are suggested when nothing matches. */
const SUGGESTIONS = 5;

/**
 * Finds a session by full id, unique id prefix, or exact title — in that order. Anything else
 * is an error listing the closest sessions: a typo never starts a silent new session.
 */
export function findSession(store: SessionStore, ref: string): SessionInfo {
  return matchSession(store, ref).session;
}

/** findSession, also saying how the ref matched (`sessions delete` wants more than a prefix). */
export function matchSession(store: SessionStore, ref: string): SessionMatch {
  const wanted = ref.trim();
  if (wanted === "") throw new UsageError("a session id, id prefix or title is required");
  const exact = store.get(wanted.toUpperCase()) ?? store.get(wanted);
  if (exact) return { session: exact, by: "id" };

  const all = store.list();
  const byPrefix = all.filter((s) => s.id.toLowerCase().startsWith(wanted.toLowerCase()));
  if (byPrefix.length === 1) {
    const session = byPrefix[0] as SessionInfo;
    // The whole id in another case than it was stored in is still the whole id.
    return { session, by: session.id.length === wanted.length ? "id" : "prefix" };
  }
  if (byPrefix.length > 1) {
    throw new UsageError(`"${ref}" matches ${byPrefix.length} sessions; give more of the id:\n${listing(byPrefix)}`);
  }

  const byTitle = all.filter((s) => s.title !== "" && s.title === wanted);
  if (byTitle.length === 1) return { session: byTitle[0] as SessionInfo, by: "title" };
  if (byTitle.length > 1) {
    throw new UsageError(`"${ref}" is the title of ${byTitle.length} sessions; use an id:\n${listing(byTitle)}`);
  }

  if (all.length === 0) throw new UsageError(`no session matches "${ref}"; there are no sessions yet`);
  const nearest = near(wanted, all);
  if (nearest.length > 0) throw new UsageError(`no session matches "${ref}"; closest:\n${listing(nearest)}`);
  // Nothing resembles it: the newest sessions are the likeliest ones meant.
  throw new UsageError(`no session matches "${ref}"; recent:\n${listing(all.slice(0, SUGGESTIONS))}`);
}

/**
 * Sessions resembling `wanted`: first those whose id starts a few edits from it (a mistyped id
 * or prefix is compared with the id's own first characters, never with the whole 26), closest
 * first; then those whose title closest() finds. Ties keep `all`'s order, newest first.
 */
function near(wanted: string, all: SessionInfo[]): SessionInfo[] {
  const byId: { session: SessionInfo; distance: number }[] = [];
  // Only a ref that could be an id (4+ characters, no spaces), and only a few edits off: ids
  // share their first characters (the time) with each other, so a loose match would list them all.
  if (wanted.length >= 4 && !/\s/.test(wanted)) {
    const needle = wanted.toUpperCase();
    const allowed = Math.max(1, Math.floor(wanted.length / 5));
    for (const session of all) {
      const distance = editDistance(needle, session.id.slice(0, wanted.length).toUpperCase());
      if (distance <= allowed) byId.push({ session, distance });
    }
  }
  const titles = closest(wanted, [...new Set(all.map((s) => s.title).filter((t) => t !== ""))], SUGGESTIONS);
  const byTitle = titles.flatMap((title) => all.filter((s) => s.title === title));
  const found = [...byId.sort((a, b) => a.distance - b.distance).map((r) => r.session), ...byTitle];
  return found.filter((s, i) => found.findIndex((t) => t.id === s.id) === i).slice(0, SUGGESTIONS);
}

function listing(sessions: SessionInfo[]): string {
  return sessions
    .slice(0, 10)
    .map((s) => `  ${s.id}  ${s.title || "(untitled)"}  ${s.directory}`)
    .join("\n");
}
