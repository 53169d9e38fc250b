import { seatGlob } from "../seats/glob.js";
import { readDecisions } from "../seats/record.js";
import type { SessionStore } from "../store/session-store.js";
import { forkOrigin } from "./ledger.js";

// Apart from json.ts: a session listing must not load the seat catalog.
/** One decision as `bosun why --json` prints it: public contract. */
export function decisionsJson(store: SessionStore, sessionId: string, seat: string | undefined) {
  const matches = seat ? seatGlob(seat) : () => true;
  const copiedFrom = forkOrigin(store, sessionId);
  return readDecisions(store, sessionId)
    .filter((d) => matches(d.seat))
    .map((d) => ({
      seq: d.seq,
      seat: d.seat,
      holder: d.holder,
      answer: d.answer,
      reasons: d.reasons,
      subject: d.subject ?? null,
      at: d.at,
      copiedFrom: copiedFrom(d.seq),
    }));
}
