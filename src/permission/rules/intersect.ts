import type { Reason } from "../../contracts/decisions.js";
import type { Action, Request } from "../../contracts/requests.js";
import {
  type EvaluateOptions,
  type Evaluation,
  evaluate,
  evaluateRequest,
  outrightDeny,
  type PreparedRules,
  prepare,
  type RequestOutcome,
  STRICTNESS,
  summarize,
} from "./evaluate.js";
import type { Rule } from "./rules.js";

/** One agent's rule layers, named for the reasons (`parent`, `delegate`, an agent name). */
export interface RuleSet {
  label: string;
  layers: Rule[][];
}

/**
 * A delegate's authority: every rule set must allow. Not a merged rule list — last-match rules
 * over globs cannot be intersected into one list in general — but the sets themselves, each
 * evaluated on its own (with its own saved approvals and the shared policy) and the strictest
 * answer taken per request (deny > ask > allow). So a delegate never has more authority than
 * any ancestor: a plan agent's `edit: deny` holds in every delegate it starts, and in theirs.
 */
export interface Intersection {
  sets: RuleSet[];
}

/** What an agent runs under: its own layers, or an intersection when it is a delegate. */
export type Authority = Rule[][] | Intersection;

/**
 * The authority of a delegate started by `parent` with its own rules `child`. Either side may
 * already be an intersection (a delegate of a delegate): the sets are concatenated, ancestors
 * first, so nesting adds constraints and never drops one. On equal strictness the earlier set
 * (the ancestor) is named as the decider.
 */
export function intersect(
  parent: Authority,
  child: Authority,
  labels: { parent?: string; child?: string } = {},
): Intersection {
  const sets = (authority: Authority, label: string): RuleSet[] =>
    Array.isArray(authority) ? [{ label, layers: authority }] : authority.sets;
  return { sets: [...sets(parent, labels.parent ?? "parent"), ...sets(child, labels.child ?? "delegate")] };
}

/** Evaluates requests under an authority: plain layers through `evaluate`, an intersection set by set. */
export function evaluateAuthority(
  authority: Authority,
  requests: readonly Request[],
  options: EvaluateOptions,
): Evaluation {
  return Array.isArray(authority)
    ? evaluate(requests, authority, options)
    : evaluateIntersection(authority, requests, options);
}

/**
 * Per request, the strictest effect of all sets, with that set's reasons first (labelled) and the
 * other sets' after, for the record. The call's effect combines per request as in `evaluate`.
 */
export function evaluateIntersection(
  intersection: Intersection,
  requests: readonly Request[],
  options: EvaluateOptions,
): Evaluation {
  return summarize(outcomesUnder(intersection, requests, options));
}

/**
 * Each request's own answer and reasons under an authority (not yet combined into the call's).
 * `refine` is what the caller makes of one rule set's answer before the sets are compared
 * (authorize's guards): it applies to every set alike, so no set's answer skips it — a delegate's
 * catch-all allow of a git config asks even where its parent's rule names the file.
 */
export function outcomesUnder(
  authority: Authority,
  requests: readonly Request[],
  options: EvaluateOptions,
): RequestOutcome[];
export function outcomesUnder<T extends RequestOutcome>(
  authority: Authority,
  requests: readonly Request[],
  options: EvaluateOptions,
  refine: (outcome: RequestOutcome) => T,
): T[];
export function outcomesUnder(
  authority: Authority,
  requests: readonly Request[],
  options: EvaluateOptions,
  refine: (outcome: RequestOutcome) => RequestOutcome = (outcome) => outcome,
): RequestOutcome[] {
  if (Array.isArray(authority)) {
    const rules = prepare(authority, options);
    return requests.map((request) => refine(evaluateRequest(request, rules)));
  }
  if (authority.sets.length === 0) throw new TypeError("evaluateIntersection: an intersection needs a rule set");
  const prepared: Array<{ label: string; rules: PreparedRules }> = authority.sets.map((set) => ({
    label: set.label,
    rules: prepare(set.layers, options),
  }));
  return requests.map((request): RequestOutcome => {
    const each = prepared.map(({ label, rules }) => ({ label, outcome: refine(evaluateRequest(request, rules)) }));
    let chosen = each[0] as (typeof each)[number];
    for (const candidate of each) {
      if (rank(candidate.outcome) > rank(chosen.outcome)) chosen = candidate;
    }
    const labelled = (label: string, reasons: Reason[]) =>
      reasons.map((reason) => ({ ...reason, detail: `${label}: ${reason.detail ?? ""}` }));
    return {
      ...chosen.outcome,
      reasons: [
        ...labelled(chosen.label, chosen.outcome.reasons),
        ...each.filter((e) => e !== chosen).flatMap((e) => labelled(e.label, e.outcome.reasons)),
      ],
    };
  });
}

/** deny > an ask only a person may answer > ask > allow: a set's person-only ask is not lost to another's plain one. */
function rank(outcome: RequestOutcome): number {
  return STRICTNESS[outcome.effect] * 2 + (outcome.personOnly !== undefined ? 1 : 0);
}

/** An authority's rule sets: plain layers are one set (labelled `own`). */
export function ruleSetsOf(authority: Authority): readonly RuleSet[] {
  return Array.isArray(authority) ? [{ label: "own", layers: authority }] : authority.sets;
}

/** The authority with every rule set's layers changed alike; its shape (plain or intersection) is kept. */
export function mapRuleSets(authority: Authority, change: (layers: Rule[][]) => Rule[][]): Authority {
  return Array.isArray(authority)
    ? change(authority)
    : { sets: authority.sets.map((set) => ({ ...set, layers: change(set.layers) })) };
}

/**
 * Under an authority, the rule that denies every request of an action (naming `resource`, when
 * fixed): the first rule set's that does, in order, else the policy's (evaluate.ts, outrightDeny).
 * The rules are prepared once, for asking about many actions.
 */
export function outrightDenial(
  authority: Authority,
  options: EvaluateOptions,
): (action: Action, resource?: string) => Rule | undefined {
  const sets = ruleSetsOf(authority).map((set) => prepare(set.layers, { ...options, policy: [] }));
  const prepared = [...sets, prepare([], options)];
  return (action, resource) => {
    for (const rules of prepared) {
      const deny = outrightDeny(rules, action, resource);
      if (deny) return deny;
    }
    return undefined;
  };
}
