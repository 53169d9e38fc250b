import { DEFAULTS } from "../config/defaults.js";
import { BASE_DELAY_MS } from "../model/retry.js";
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
    default:
      "a new session (code), unless the person names one to resume or fork, or asks to continue the latest one here",
    fail: "closed",
    config: [],
  },
  {
    id: "model.select",
    question: "Which model answers this session's requests?",
    holders: ["person", "code", "config"],
    default:
      "--model (person); else the resumed session's own model; else the agent's model; else config model; else the first provider with credentials and its default model (code)",
    fail: "closed",
    config: ["model", "provider"],
  },
  {
    id: "model.retry",
    question: "Is a failed model request tried again, and after how long?",
    holders: ["code"],
    default: `retry rate limits, server errors and network failures while nothing of the attempt was shown: up to ${DEFAULTS.retry?.max_attempts} attempts, exponential backoff from ${BASE_DELAY_MS} ms with jitter, honouring retry-after, no delay over ${DEFAULTS.retry?.max_delay_ms} ms`,
    fail: "closed",
    config: ["retry.max_attempts", "retry.max_delay_ms"],
  },
  {
    id: "model.fallback",
    question: "After a model fails for good, which model takes over?",
    holders: ["config"],
    default:
      "none: the failure stands unless config fallback lists models; only rate limit, quota, server, network and authentication failures move to the next listed model",
    fail: "closed",
    config: ["fallback"],
  },
];

export function findSeat(id: string): Seat | undefined {
  return SEATS.find((seat) => seat.id === id);
}
