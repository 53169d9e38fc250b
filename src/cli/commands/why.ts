import { UsageError } from "../../errors.js";
import { seatGlob } from "../../seats/glob.js";
import { readDecisions } from "../../seats/record.js";
import { namesASeat } from "../../seats/seat-names.js";
import { sessionHome } from "../../session/home.js";
import { forkOrigin } from "../../session/ledger.js";
import { latestSessionHere } from "../../session/open.js";
import { findSession } from "../../store/lookup.js";
import type { SessionInfo, SessionStore } from "../../store/session-store.js";
import { colorOn, outputWidth } from "../../util/terminal.js";
import { json, out } from "../output.js";
import { ledgerText, unknownSeatMessage } from "../why-text.js";
import { READ_ONLY, withStore } from "./store.js";

export interface WhyOptions {
  seat?: string;
  json?: boolean;
  /** The newest session of this repository (also what no session named means). */
  last?: boolean;
  /** Set-up decisions in full, not folded into one line per run. */
  all?: boolean;
}

export function why(ref: string | undefined, options: WhyOptions): void {
  if (ref !== undefined && options.last) throw new UsageError("give a session or --last, not both");
  const width = outputWidth();
  if (options.seat !== undefined && !namesASeat(options.seat)) {
    // A typo, not a seat that decided nothing here: say which seats there are.
    throw new UsageError(unknownSeatMessage(options.seat, width));
  }
  withStore((store) => {
    const session = ref === undefined ? latest(store) : findSession(store, ref);
    if (options.json) {
      const matches = options.seat ? seatGlob(options.seat) : () => true;
      const copiedFrom = forkOrigin(store, session.id);
      return json(
        readDecisions(store, session.id)
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
          })),
      );
    }
    out(ledgerText(store, session.id, { width, color: colorOn(), seat: options.seat, all: options.all === true }));
  }, READ_ONLY);
}

function latest(store: SessionStore): SessionInfo {
  const found = latestSessionHere(store, process.cwd());
  if (!found) {
    throw new UsageError(
      `no session in ${sessionHome(process.cwd())} yet; name one: bosun why <session> (bosun sessions --all lists them)`,
    );
  }
  return found;
}
