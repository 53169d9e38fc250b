import type { Reason } from "../contracts/decisions.js";
import { BosunError } from "../errors.js";
import { recordDecision } from "../seats/record.js";
import { holdsLease, type Lease } from "../store/lease.js";
import type { SessionStore } from "../store/session-store.js";
import { EV } from "./events.js";
import { isEventOf, type JournalEvent, sqliteJournal } from "./journal.js";

/**
 * Seat `session.recover`. A call recorded as started with no outcome means bosun died while it
 * ran. It is marked interrupted — never run again, since it may have half-happened — and the
 * model will see that in the call's result. A call the model asked for that has no record at all
 * (bosun died after the reply was stored, before the call's write-ahead record) never ran: it is
 * given a result saying so, and is not run now either — the model asks again if it still wants it.
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
    const holder = previousHolder(lease);
    // Read once: what markOrphans appends (interrupted markers) settles only calls that started,
    // which markNeverStarted leaves alone anyway.
    const events = sqliteJournal(store, sessionId).events();
    return [...markOrphans(store, sessionId, events, holder), ...markNeverStarted(store, sessionId, events, holder)];
  });
}

/** What the model reads as the result of a call that never started. */
export const NEVER_STARTED =
  "Not run: bosun stopped after you asked for this call and before it started. It never ran and was not run later; ask for it again if it is still needed.";

/** Whose run it was, when a lease says so: the dead holder this run's lease replaced. */
function previousHolder(lease: Lease): Reason[] {
  const gone = lease.replaced;
  return gone
    ? [
        {
          rule: "previous holder gone",
          detail: `bosun pid ${gone.pid} on ${gone.host}, holder since ${new Date(gone.acquired).toISOString()}: ${gone.verdict}`,
        },
      ]
    : [];
}

function markOrphans(
  store: SessionStore,
  sessionId: string,
  events: readonly JournalEvent[],
  holder: Reason[],
): string[] {
  // Matched in order, not by id alone: a provider may reuse a call id in a later step, and an
  // earlier call's outcome must not hide a later call that never finished.
  type Started = { id: string; name: string; step: number; settled?: boolean };
  const started: Started[] = [];
  for (const event of events) {
    if (event.type === EV.callStarted) {
      const { id, name, step } = event.data;
      started.push({ id, name, step });
    } else if (isEventOf(event, OUTCOMES)) {
      // The latest unsettled start with this id is the run the outcome ends.
      for (let i = started.length - 1; i >= 0; i--) {
        const call = started[i] as Started;
        if (call.id === event.data.id && !call.settled) {
          call.settled = true;
          break;
        }
      }
    }
  }
  const orphans = started.filter((s) => !s.settled);
  const journal = sqliteJournal(store, sessionId);
  for (const call of orphans) {
    journal.append(EV.callInterrupted, { id: call.id, name: call.name });
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

/**
 * Calls of an assistant message that have no record at all — no start, no outcome — in a turn
 * that never ended: bosun died between storing the reply and the first call's write-ahead record
 * (or between two calls' records). Each gets an error result the model reads and a decision.
 *
 * Outcomes are matched to messages as the conversation projection does (conversation.ts):
 * by id, to the latest earlier message with that call open, since providers reuse ids. A turn
 * that ended (turn.ended) before the next reply left its unrun calls on purpose (a cancelled or
 * broken response): that is no crash, and nothing is recovered there.
 */
function markNeverStarted(
  store: SessionStore,
  sessionId: string,
  events: readonly JournalEvent[],
  holder: Reason[],
): string[] {
  type Asked = { id: string; name: string; step: number; started?: boolean; settled?: boolean; ended?: boolean };
  const open = new Map<string, Asked[]>();
  const latest = (id: string, which: (call: Asked) => boolean) => open.get(id)?.filter(which).at(-1);
  let turn: Asked[] = [];
  const asked: Asked[] = [];
  for (const event of events) {
    if (event.type === EV.assistant) {
      const message = event.data;
      turn = message.toolCalls.map((call) => ({ id: call.id, name: call.name, step: message.step }));
      for (const call of turn) open.set(call.id, [...(open.get(call.id) ?? []), call]);
      asked.push(...turn);
    } else if (event.type === EV.turnEnded) {
      for (const call of turn) call.ended = true;
      turn = [];
    } else if (event.type === EV.callStarted) {
      const call = latest(event.data.id, (c) => !c.started && !c.settled);
      if (call) call.started = true;
    } else if (isEventOf(event, OUTCOMES)) {
      // An outcome ends the run it follows; one with no run is a refusal of a call not yet started.
      const id = event.data.id;
      const call = latest(id, (c) => c.started === true && !c.settled) ?? latest(id, (c) => !c.started && !c.settled);
      if (call) call.settled = true;
    }
  }
  const never = asked.filter((call) => !call.started && !call.settled && !call.ended);
  const journal = sqliteJournal(store, sessionId);
  for (const call of never) {
    journal.append(EV.callFinished, {
      id: call.id,
      name: call.name,
      output: NEVER_STARTED,
      isError: true,
      summary: `${call.name}: never started`,
    });
    recordDecision(store, sessionId, {
      seat: "session.recover",
      holder: "code",
      answer: "never started",
      reasons: [
        {
          rule: "asked for, never started",
          detail: `${call.name} ${call.id} (step ${call.step}) has no record: bosun stopped before it started; not run`,
          decisive: true,
        },
        ...holder,
      ],
      subject: { step: call.step, call: call.id },
    });
  }
  return never.map((call) => call.id);
}

const OUTCOMES = [EV.callFinished, EV.callInterrupted, EV.callCancelled] as const;
