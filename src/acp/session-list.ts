import type { ListSessionsResponse } from "@agentclientprotocol/sdk";
import type { SessionInfo } from "../store/session-store.js";

/** Sessions one session/list answer holds; the rest follow by cursor. */
export const PAGE_SIZE = 50;

/**
 * One page of the editor's session history: the sessions given (newest first, delegates already
 * left out: they are their parents' work, not the person's conversations), from `cursor` (an
 * offset bosun gave before; anything else starts at the top).
 */
export function sessionPage(sessions: readonly SessionInfo[], cursor?: string | null): ListSessionsResponse {
  const from = cursor && /^\d+$/.test(cursor) ? Number(cursor) : 0;
  const page = sessions.slice(from, from + PAGE_SIZE);
  const next = from + PAGE_SIZE < sessions.length ? String(from + PAGE_SIZE) : undefined;
  return {
    sessions: page.map((s) => ({
      sessionId: s.id,
      cwd: s.directory,
      title: s.title,
      updatedAt: new Date(s.updated).toISOString(),
    })),
    ...(next ? { nextCursor: next } : {}),
  };
}
