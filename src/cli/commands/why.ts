import { seatGlob } from "../../seats/glob.js";
import { readDecisions } from "../../seats/record.js";
import { formatDecision } from "../../seats/render.js";
import { findSession } from "../../store/lookup.js";
import { json, out } from "../output.js";
import { READ_ONLY, withStore } from "./store.js";

export function why(ref: string, options: { seat?: string; json?: boolean }): void {
  withStore((store) => {
    const session = findSession(store, ref);
    const matches = options.seat ? seatGlob(options.seat) : () => true;
    const decisions = readDecisions(store, session.id).filter((d) => matches(d.seat));
    // A fork's log starts with copies of the original's events: mark them as inherited.
    const created = store.events(session.id, "session.created")[0]?.data as
      | { forked_from?: string; copied?: number }
      | undefined;
    const copiedFrom = (seq: number) =>
      created?.forked_from && seq <= 1 + (created.copied ?? 0) ? created.forked_from : null;
    if (options.json) {
      return json(
        decisions.map((d) => ({
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
    if (decisions.length === 0) {
      return out(options.seat ? `no decisions for seats matching "${options.seat}"` : "no decisions recorded");
    }
    out(
      decisions
        .map((d) => {
          const from = copiedFrom(d.seq);
          return from ? `${formatDecision(d)}\t[copied from ${from}]` : formatDecision(d);
        })
        .join("\n"),
    );
  }, READ_ONLY);
}
