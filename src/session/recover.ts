import { BosunError } from "../errors.js";
import { recordDecision } from "../seats/record.js";
import type { Reason } from "../seats/types.js";
import { holdsLease, type Lease } from "../store/lease.js";
import type { SessionStore } from "../store/session-store.js";
import { EV } from "./events.js";

/**
 * Seat `session.recover`. A call recorded as started with no outcome means bosun died while it
 * ran. It is marked interrupted — never run again, since it may have half-happened — and the
 * model will see that in the call's result.
 *
 * Precondition: the caller holds the session's lease (`acquireLease`), so no other live run can
 * own an unfinished call here — a call with no outcome is then truly orphaned. The lease is checked
 * under the same write lock as the scan and the markers; without it this throws and marks nothing.
 */
export function recoverInterruptedCalls(store: SessionStore, sessionId: string, lease: Lease): string[] {
  return store.atomically(() => {
    if (lease.sessionId !== sessionId || !holdsLease(store, sessionId, lease.token)) {
      throw new BosunError(
        `cannot recover session ${sessionId}: this run does not hold its lease (another run may be using it)`,
        1,
      );
    }
    return markOrphans(store, sessionId, lease);
  });
}

function markOrphans(store: SessionStore, sessionId: string, lease: Lease): string[] {
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
  // Whose run it was, when a lease says so: the dead holder this run's lease replaced.
  const gone = lease.replaced;
  const holder: Reason[] = gone
    ? [
        {
          rule: "previous holder gone",
          detail: `bosun pid ${gone.pid} on ${gone.host}, holder since ${new Date(gone.acquired).toISOString()}: ${gone.verdict}`,
        },
      ]
    : [];
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
        ...holder,
      ],
      subject: { step: call.step, call: call.id },
    });
  }
  return orphans.map((o) => o.id);
}
