import type { ApprovalPrompt } from "../permission/gate/approval.js";
import type { GateDeps } from "../permission/gate/gate.js";
import { type ReadCheck, readCheck } from "../permission/gate/read-check.js";
import type { AlwaysRule } from "../permission/rules/always.js";
import { withSavedApprovals } from "../permission/rules/layers.js";
import type { Rule } from "../permission/rules/rules.js";

/** What one turn (or one command span) brings to the gate: its person, its signal, its recorder. */
export interface TurnParts {
  prompt?: ApprovalPrompt;
  signal: AbortSignal;
  record: GateDeps["record"];
}

/**
 * A session's gate as things stand. Every value it hands out is frozen and never changed: the
 * person's "always" makes a new gate whose rule sets hold the new approvals, and the next call
 * judged (in this turn or a later one) gets that one. A call already being judged keeps the gate
 * it started with, so no rule set moves under it.
 */
export interface SessionGate {
  current(): Readonly<GateDeps>;
  /** A fresh frozen copy of the current gate with one turn's person (the session's when it brings none), signal and recorder. */
  forTurn(turn: TurnParts): Readonly<GateDeps>;
  /** The read check of the current authority: every route into the model's context asks it. */
  readCheck: ReadCheck;
  /** Set-up only (the repository's hooks once judged): the gate replaced by a changed copy. */
  settle(change: (gate: Readonly<GateDeps>) => GateDeps): void;
  /**
   * The person's "always", given to one of this session's delegates (and saved there): in force
   * here too from the next call judged, and passed on up, as if answered here.
   */
  adopt(rules: readonly Rule[]): void;
}

/**
 * @param build the gate, given the `saveAlways` it must carry (this holder's).
 * @param persist saves the person's "always" and returns the rules now in force for it.
 */
export function sessionGate(
  build: (saveAlways: GateDeps["saveAlways"]) => GateDeps,
  persist: (rules: AlwaysRule[], tool: string) => readonly Rule[],
  /** Told of every approval put in force here: a delegate's gate tells its parent's. */
  onSaved?: (rules: readonly Rule[]) => void,
): SessionGate {
  const adopt = (added: readonly Rule[]) => {
    const { authority } = current;
    current = Object.freeze({
      ...current,
      authority: Object.freeze({ ...authority, rules: withSavedApprovals(authority.rules, added) }),
    });
    onSaved?.(added);
  };
  const saveAlways: GateDeps["saveAlways"] = (rules, tool) => adopt(persist(rules, tool));
  let current: Readonly<GateDeps> = Object.freeze(build(saveAlways));
  // Made again only when the authority changed: a read check prepares its rules once.
  let checked: { for: GateDeps["authority"]; check: ReadCheck } | undefined;
  const check = (): ReadCheck => {
    if (checked?.for !== current.authority) {
      checked = { for: current.authority, check: readCheck({ authority: current.authority, policy: current.policy }) };
    }
    return checked.check;
  };
  const live: ReadCheck = Object.assign((path: string, query: Parameters<ReadCheck>[1]) => check()(path, query), {
    web: (url: string, query: Parameters<ReadCheck>[1]) =>
      check().web?.(url, query) ?? { ok: false as const, reason: "web requests are not judged here" },
  });
  return {
    current: () => current,
    forTurn: (turn) => Object.freeze({ ...current, ...turn }),
    readCheck: live,
    settle(change) {
      current = Object.freeze(change(current));
    },
    adopt,
  };
}
