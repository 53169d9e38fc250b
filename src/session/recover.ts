import { EV } from "../loop/events.js";
import { recordDecision } from "../seats/record.js";
import type { SessionStore } from "../store/session-store.js";

/**
 * Seat `session.recover`. A call recorded as started with no outcome means bosun died while it
 * ran. It is marked interrupted — never run again, since it may have half-happened — and the
 * model will see that in the call's result.
 */
export function recoverInterruptedCalls(store: SessionStore, sessionId: string): string[] {
  // Matched in order, not by id alone: a provider may reuse a call id in a later step, and an
  // earlier call's outcome must not hide a later call that never finished.
  type Started = { id: string; name: string; step: number; settled?: boolean };
  const started: Started[] = [];
  for (const event of store.events(sessionId)) {
    const data = event.data as Started;
    if (event.type === EV.callStarted) {
      started.push({ id: data.id, name: data.name, step: data.step });
    } else if (event.type === EV.callFinished || event.type === EV.callInterrupted || event.type === EV.callCancelled) {
      // The latest unsettled start with this id is the run the outcome ends.
      for (let i = started.length - 1; i >= 0; i--) {
        const call = started[i] as Started;
        if (call.id === data.id && !call.settled) {
          call.settled = true;
          break;
        }
      }
    }
  }
  const orphans = started.filter((s) => !s.settled);
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
