import type { Answer, Reason } from "../contracts/decisions.js";
import { UsageError } from "../errors.js";
import type { SessionInfo } from "../store/session-store.js";

/** What the person asked for on the command line. */
export interface TargetFlags {
  /** `--session <id|prefix|title>` */
  session?: string;
  /** `--continue`: the latest session here (of this repository, from any of its folders: home.ts). */
  continue?: boolean;
  /** `--fork`: a copy of the chosen session, leaving the original as it was. */
  fork?: boolean;
  /** How the person said it, for the record, when not by these flags (e.g. `bosun sessions fork`). */
  said?: { session?: string; fork?: string };
}

export type TargetAnswer =
  | { mode: "new" }
  | { mode: "continue"; session: string }
  | { mode: "resume"; session: string }
  | { mode: "fork"; from: string };

/** Flag combinations that mean nothing are usage errors, refused before anything is decided. */
export function checkTargetFlags(flags: TargetFlags): void {
  if (flags.session !== undefined && flags.continue) {
    throw new UsageError("--session and --continue both choose a session; give one of them");
  }
  if (flags.fork && flags.session === undefined && !flags.continue) {
    throw new UsageError("--fork needs a session to copy: add --session <id> or --continue");
  }
}

/**
 * Seat `session.target`. The person decides through flags; with no flag, code starts a new
 * session. The facts (the named session, the latest one here) are looked up by the caller,
 * which has already refused unknown ids and an empty --continue.
 */
export function decideSessionTarget(
  flags: TargetFlags,
  /** `directory`: where sessions from here are recorded, the repository's root (home.ts). */
  facts: { named?: SessionInfo; latestHere?: SessionInfo; directory: string },
): Answer<TargetAnswer> {
  const reasons: Reason[] = [];
  let chosen: SessionInfo | undefined;
  if (flags.session !== undefined && facts.named) {
    chosen = facts.named;
    reasons.push({
      rule: "session given by the person",
      detail: `"${flags.session}" is ${chosen.id}${chosen.title ? ` (${chosen.title})` : ""}`,
      source: flags.said?.session ?? "--session",
      decisive: !flags.fork,
    });
    if (chosen.directory !== facts.directory) {
      reasons.push({ rule: "note", detail: `the session was started in ${chosen.directory}` });
    }
  } else if (flags.continue && facts.latestHere) {
    chosen = facts.latestHere;
    reasons.push({
      rule: "latest session of this repository (or folder, outside one)",
      detail: `${chosen.id} in ${facts.directory}`,
      source: "--continue",
      decisive: !flags.fork,
    });
  }
  if (chosen && flags.fork) {
    reasons.push({
      rule: "fork requested",
      detail: `copy ${chosen.id} into a new session`,
      source: flags.said?.fork ?? "--fork",
      decisive: true,
    });
    return { holder: "person", answer: { mode: "fork", from: chosen.id }, reasons };
  }
  if (chosen) {
    const mode = flags.continue ? "continue" : "resume";
    return { holder: "person", answer: { mode, session: chosen.id }, reasons };
  }
  return {
    holder: "code",
    answer: { mode: "new" },
    reasons: [
      { rule: "default", detail: "no --session, --continue or --fork given: start a new session", decisive: true },
    ],
  };
}
