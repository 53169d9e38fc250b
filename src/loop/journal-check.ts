import { applyCheckpoint } from "../compaction/checkpoint.js";
import { projectConversation } from "../session/conversation.js";
import type { StoredEvent } from "../store/session-store.js";

/**
 * Whether the loop checks, at every step, that what it keeps in memory is what the journal says:
 * on in tests (BOSUN_CHECK_JOURNAL=1), where a run that drifts fails; off otherwise (the check
 * is a whole read of the log, the very cost the in-memory log saves).
 */
export const checkingJournal = (env: NodeJS.ProcessEnv = process.env) => env.BOSUN_CHECK_JOURNAL === "1";

/**
 * The journal stays the truth: the log the loop keeps in memory (EventTail), and the conversation
 * it projects from it, must equal what a fresh read of the journal gives. Returns what differs,
 * or undefined when nothing does.
 */
export function driftFromJournal(kept: readonly StoredEvent[], fresh: readonly StoredEvent[]): string | undefined {
  if (kept.length !== fresh.length) return `${kept.length} events in memory, ${fresh.length} in the journal`;
  for (let i = 0; i < kept.length; i++) {
    if (JSON.stringify(kept[i]) !== JSON.stringify(fresh[i])) return `event seq ${fresh[i]?.seq} differs`;
  }
  const mine = JSON.stringify(projectConversation(applyCheckpoint(kept)));
  const theirs = JSON.stringify(projectConversation(applyCheckpoint(fresh)));
  return mine === theirs ? undefined : "the projected conversation differs";
}
