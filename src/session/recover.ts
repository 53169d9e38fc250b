import { EV } from "../loop/events.js";
import { recordDecision } from "../seats/record.js";
import type { SessionStore } from "../store/session-store.js";

/**
 * Seat `session.recover`. A call recorded as started with no outcome means bosun died while it
 * ran. It is marked interrupted — never run again, since it may have half-happened — and the
 * model will see that in the call's result.
 */
export function recoverInterruptedCalls(store: SessionStore, sessionId: string): string[] {
  const events = store.events(sessionId);
  const settled = new Set(
    events
      .filter((e) => e.type === EV.callFinished || e.type === EV.callInterrupted || e.type === EV.callCancelled)
      .map((e) => (e.data as { id: string }).id),
  );
  const orphans = events
    .filter((e) => e.type === EV.callStarted && !settled.has((e.data as { id: string }).id))
    .map((e) => e.data as { id: string; name: string; step: number });
  if (orphans.length === 0) return [];
  store.atomically(() => {
    for (const call of orphans) {
      store.append(sessionId, EV.callInterrupted, { id: call.id, name: call.name });
      recordDecision(store, sessionId, {
        seat: "session.recover",
        holder: "code",
        answer: "interrupted",
        reasons: [
          {
            rule: "started, never finished",
            detail: `${call.name} ${call.id} was running when bosun stopped; not run again`,
            decisive: true,
          },
        ],
        subject: { step: call.step, call: call.id },
      });
    }
  });
  return orphans.map((o) => o.id);
}
