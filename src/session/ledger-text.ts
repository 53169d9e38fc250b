import { seatGlob } from "../seats/glob.js";
import type { LedgerEntry } from "../seats/ledger-group.js";
import { renderLedger } from "../seats/ledger-view.js";
import type { SessionInfo, SessionStore } from "../store/session-store.js";
import { type Delegate, delegatesOf } from "./delegates.js";
import { readLedger } from "./ledger.js";

/**
 * The ledger as text, for `bosun why` and `/why`: grouped by turn and step, fitted to `width`;
 * a line saying so when nothing (for the seat glob) was recorded.
 */
export function ledgerText(
  store: SessionStore,
  sessionId: string,
  options: { width: number; color: boolean; seat?: string | undefined; all: boolean; allHint?: string },
): string {
  const entries = linkDelegates(readLedger(store, sessionId), delegatesOf(store, sessionId));
  const lines = renderLedger(entries, {
    width: options.width,
    color: options.color,
    // A seat glob already narrows the ledger: what it names is shown, set-up or not.
    all: options.all || options.seat !== undefined,
    ...(options.seat ? { keep: seatGlob(options.seat) } : {}),
    ...(options.allHint ? { allHint: options.allHint } : {}),
  });
  if (lines.length > 0) return lines.join("\n");
  return options.seat ? `no decisions for seats matching "${options.seat}"` : "no decisions recorded";
}

/**
 * Each `task` call of the ledger with the delegate session it started, so its heading names it:
 * the session its `task_id` resumed, else the next delegate (in the order they were started) that
 * names this call as its own. (A refused task call starts none; were its id used again by a later
 * call, as scripted models do, the later call's delegate would be named on it — real models'
 * call ids are unique.)
 */
export function linkDelegates(
  entries: LedgerEntry[],
  delegates: ReadonlyArray<{ session: SessionInfo; delegate: Delegate }>,
): LedgerEntry[] {
  if (delegates.length === 0) return entries;
  const ids = new Set(delegates.map((d) => d.session.id));
  const waiting = [...delegates];
  return entries.map((entry) => {
    if (entry.kind !== "calls") return entry;
    const calls = entry.calls.map((call) => {
      if (call.tool !== "task") return call;
      const resumed = (call.input as { task_id?: unknown } | null)?.task_id;
      if (typeof resumed === "string" && ids.has(resumed)) return { ...call, session: resumed };
      const at = waiting.findIndex((d) => d.delegate.call === call.id);
      const started = at < 0 ? undefined : waiting.splice(at, 1)[0];
      return started ? { ...call, session: started.session.id } : call;
    });
    return { ...entry, calls };
  });
}
