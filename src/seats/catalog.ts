import type { Seat } from "./types.js";

/**
 * Every decision point bosun has, declared once. `bosun seats` prints this list; the ledger
 * refuses a decision for a seat not declared here or by a holder the seat does not allow.
 * A test fails when a seat here is named by no test.
 */
export const SEATS: readonly Seat[] = [
  {
    id: "config.load",
    question: "Which config layers and files were read, and which were absent?",
    holders: ["code"],
    default:
      "read every layer that exists, lowest first: default, global, project, BOSUN_CONFIG, BOSUN_CONFIG_CONTENT, env, flag",
    fail: "closed",
    config: ["BOSUN_HOME", "BOSUN_CONFIG", "BOSUN_CONFIG_CONTENT", "XDG_CONFIG_HOME"],
  },
  {
    id: "session.target",
    question: "Which session does this run belong to: new, the latest here, a given one, or a fork?",
    holders: ["person", "code"],
    default: "new session (code); --continue, --session and --fork are the person's",
    fail: "closed",
    config: [],
  },
];

export function findSeat(id: string): Seat | undefined {
  return SEATS.find((seat) => seat.id === id);
}
