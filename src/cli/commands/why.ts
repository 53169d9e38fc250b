import { seatGlob } from "../../seats/glob.js";
import { readDecisions } from "../../seats/record.js";
import { formatDecision } from "../../seats/render.js";
import { findSession } from "../../store/lookup.js";
import { json, out } from "../output.js";
import { withStore } from "./store.js";

export function why(ref: string, options: { seat?: string; json?: boolean }): void {
  withStore((store) => {
    const session = findSession(store, ref);
    const matches = options.seat ? seatGlob(options.seat) : () => true;
    const decisions = readDecisions(store, session.id).filter((d) => matches(d.seat));
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
        })),
      );
    }
    if (decisions.length === 0) {
      return out(options.seat ? `no decisions for seats matching "${options.seat}"` : "no decisions recorded");
    }
    out(decisions.map(formatDecision).join("\n"));
  });
}
