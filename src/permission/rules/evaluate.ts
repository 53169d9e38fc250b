import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import type { Reason } from "../../contracts/decisions.js";
import type { Action, Request } from "../../contracts/requests.js";
import { type MatchContext, matchResource, ruleMatches } from "./match.js";
import { isPathAction, UNKNOWN_PATH } from "./requests.js";
import { CONFIGURED_LAYERS, type Effect, isCatchAll, LAYERS, layerRank, type Rule } from "./rules.js";

export interface EvaluateOptions {
  /** Administrator rules: deny-only, applied after everything, never overridden. */
  policy?: readonly Rule[];
  /** The workspace folder, absolute and resolved (`resolveRequestPath(dir, "/")`). */
  workspace: string;
  /** What `~` in a path pattern means; default the user's home folder. */
  home?: string;
}

export interface RequestEvaluation {
  request: Request;
  effect: Effect;
  /** The rule that decided; undefined when no rule matched (or the request was malformed). */
  rule?: Rule;
}

export interface Evaluation {
  effect: Effect;
  perRequest: RequestEvaluation[];
  reasons: Reason[];
}

/** How strict an effect is: deny > ask > allow. */
export const STRICTNESS: Readonly<Record<Effect, number>> = { allow: 0, ask: 1, deny: 2 };

export function stricter(a: Effect, b: Effect): Effect {
  return STRICTNESS[b] > STRICTNESS[a] ? b : a;
}

/** The effect of a whole call: any deny → deny; else any ask → ask; else allow. None → ask. */
export function combine(effects: readonly Effect[]): Effect {
  if (effects.length === 0) return "ask";
  return effects.reduce(stricter, "allow");
}

/**
 * Seat `call.permission`'s rule evaluation: the one function that turns a call's requests and
 * the rule layers into an effect, with the reason for every request. Pure.
 *
 * Per request: the rules of every layer are considered in layer order (default, mode, global,
 * project, agent, session, saved — taken from each rule's `source.layer`, so the order of the
 * `layers` array does not matter except among rules of the same layer) and the LAST matching
 * rule wins. No matching rule → ask (fail closed). A saved approval (layer `saved`) is skipped
 * when it would loosen the answer and any configured rule matching the request says deny —
 * even a deny a later configured rule overrode: the person's "always" never lifts a deny.
 * Then any matching policy rule makes it deny, whatever came before.
 *
 * The call: any deny → deny; else any ask → ask; else allow; no requests → ask.
 *
 * Throws (a programming error, not a decision) when a layer holds a policy rule, a policy rule
 * is not a deny, or the workspace is not absolute.
 */
export function evaluate(
  requests: readonly Request[],
  layers: readonly Rule[][],
  options: EvaluateOptions,
): Evaluation {
  const prepared = prepare(layers, options);
  return summarize(requests.map((request) => evaluateRequest(request, prepared)));
}

/** Rules checked and sorted once, for evaluating many requests against the same layers. */
export interface PreparedRules {
  configured: readonly Rule[];
  saved: readonly Rule[];
  policy: readonly Rule[];
  ctx: MatchContext;
}

export function prepare(layers: readonly Rule[][], options: EvaluateOptions): PreparedRules {
  if (!isAbsolute(options.workspace)) {
    throw new TypeError(`evaluate: workspace must be an absolute path, got ${JSON.stringify(options.workspace)}`);
  }
  const all = layers.flat();
  for (const rule of all) {
    if (!(LAYERS as readonly string[]).includes(rule.source.layer)) {
      throw new TypeError(
        `evaluate: rule ${rule.source.key} has layer "${rule.source.layer}"; policy rules go in options.policy`,
      );
    }
  }
  for (const rule of options.policy ?? []) {
    if (rule.source.layer !== "policy" || rule.effect !== "deny") {
      throw new TypeError(
        `evaluate: policy rule ${rule.source.key} must be a deny from layer "policy" (got ${rule.effect} from "${rule.source.layer}")`,
      );
    }
  }
  // Stable: rules of one layer keep their given order.
  const sorted = all
    .map((rule, index) => ({ rule, index }))
    .sort((a, b) => layerRank(a.rule.source.layer) - layerRank(b.rule.source.layer) || a.index - b.index)
    .map(({ rule }) => rule);
  return {
    configured: sorted.filter((rule) => rule.source.layer !== "saved"),
    saved: sorted.filter((rule) => rule.source.layer === "saved"),
    policy: options.policy ?? [],
    ctx: { workspace: resolve(options.workspace), home: options.home ?? homedir() },
  };
}

/** One request's answer, with its reasons (not yet marked decisive). */
export interface RequestOutcome extends RequestEvaluation {
  reasons: Reason[];
  /**
   * An ask only a person who sees the call may answer (why): neither auto mode nor --auto turns
   * it into a yes — a path not known before it runs that a deny no mask keeps might cover.
   */
  personOnly?: string;
}

/**
 * Whether a masked command is kept from what a read deny covers without knowing the path: the
 * workspace's files are shown empty (confine.ts), and another process's environment is out of
 * sight in its own process namespace. Writes, and reads of other places, are not.
 */
function maskable(rule: Rule, workspace: string): boolean {
  if (rule.action !== "read") return false;
  if (rule.pattern.startsWith("/proc/") || rule.pattern.startsWith(`${workspace}/`)) return true;
  return !rule.pattern.startsWith("/") && !rule.pattern.startsWith("~");
}

export function evaluateRequest(request: Request, rules: PreparedRules): RequestOutcome {
  const name = `${request.action}:${request.resource}`;
  const unknownPath = isPathAction(request.action) && request.resource === UNKNOWN_PATH;
  if (isPathAction(request.action) && !unknownPath && !isResolvedPath(request.resource)) {
    // A tool bug: an unresolved path could slip past absolute patterns. Never guess.
    return {
      request,
      effect: "deny",
      reasons: [
        {
          rule: name,
          detail: "deny — not an absolute, normalized path (the request was built without resolveRequestPath)",
        },
      ],
    };
  }
  const matching = (list: readonly Rule[]) => list.filter((rule) => ruleMatches(rule, request, rules.ctx));
  const configured = matching(rules.configured);
  const reasons: Reason[] = [];
  const last = lastEffective(configured, (reason) => reasons.push({ ...reason, rule: name }));
  const configuredDeny = configured.filter((rule) => rule.effect === "deny").at(-1);
  let decided = last;

  const saved = matching(rules.saved).at(-1);
  if (saved) {
    const base = last?.effect ?? "ask";
    const loosens = STRICTNESS[saved.effect] < STRICTNESS[base];
    if (loosens && configuredDeny) {
      reasons.push({
        ...ruleReason(name, configuredDeny),
        detail: `saved approval "${saved.pattern}" not applied: a ${configuredDeny.source.layer} rule "${configuredDeny.pattern}" denies this, and saved approvals never lift a configured deny`,
      });
    } else if (loosens && last && last.effect === "ask" && CONFIGURED_LAYERS.has(last.source.layer)) {
      reasons.push({
        ...ruleReason(name, last),
        detail: `saved approval "${saved.pattern}" not applied: a ${last.source.layer} rule "${last.pattern}" says ask, and a rule someone wrote is asked every time`,
      });
    } else {
      decided = saved;
    }
  }
  // The administrator's word comes before anything the rules would make of the request.
  const policy = policyRuleFor(request, rules.policy, rules.ctx);
  if (policy) return policyOutcome(request, policy, decided, reasons);
  if (unknownPath && decided?.effect !== "deny") {
    // A path not known before it runs (`cat "$F"`, `echo x > "$F"`) may be one a narrower rule
    // denies. A deny no mask can keep (a write, or a read outside the workspace): only a person
    // who sees the call may allow it, never auto mode's or --auto's blanket yes.
    const unmaskable = rules.configured.find(
      (rule) =>
        rule.action === request.action &&
        rule.pattern !== "*" &&
        rule.effect === "deny" &&
        !maskable(rule, rules.ctx.workspace),
    );
    if (unmaskable) {
      return {
        request,
        effect: "ask",
        ...(decided ? { rule: decided } : {}),
        personOnly: `the path is not known before it runs, and the ${unmaskable.source.layer} rule ${request.action} "${unmaskable.pattern}" → deny might cover it`,
        reasons: [
          {
            ...ruleReason(name, unmaskable),
            detail: `ask — the path is not known before the command runs, and the ${unmaskable.source.layer} rule ${request.action} "${unmaskable.pattern}" → deny might cover it: only a person who sees the call may allow it`,
          },
        ],
      };
    }
  }
  if (unknownPath && decided?.effect === "allow") {
    // `echo x > "$F"`: a rule for every path allows, but a narrower rule might deny or ask for
    // the path it turns out to be. Nobody can tell before it runs: ask.
    const narrower = rules.configured.find(
      (rule) => rule.action === request.action && rule.pattern !== "*" && rule.effect !== "allow",
    );
    if (narrower) {
      return {
        request,
        effect: "ask",
        rule: decided,
        reasons: [
          {
            ...ruleReason(name, narrower),
            detail: `ask — the path is not known before the command runs, and the ${narrower.source.layer} rule ${request.action} "${narrower.pattern}" → ${narrower.effect} might cover it`,
          },
        ],
      };
    }
  }

  if (!decided) {
    return {
      request,
      effect: "ask",
      reasons: [{ rule: name, detail: "ask — no rule matches (fail closed)" }, ...reasons],
    };
  }
  return {
    request,
    effect: decided.effect,
    rule: decided,
    reasons: [
      { ...ruleReason(name, decided), detail: `${decided.effect} — ${describeRule(decided)}, last match` },
      ...reasons,
    ],
  };
}

/**
 * The policy rule that covers a request: the last that matches it. A path not known before the
 * call runs (`edit:*`) might be any path, so every policy rule of its action covers it. The one
 * place policy is matched: the evaluator, the gate's call.policy and the read checks ask it.
 */
export function policyRuleFor(request: Request, policy: readonly Rule[], ctx: MatchContext): Rule | undefined {
  const unknownPath = isPathAction(request.action) && request.resource === UNKNOWN_PATH;
  return policy
    .filter((rule) => (unknownPath ? rule.action === request.action : ruleMatches(rule, request, ctx)))
    .at(-1);
}

/** A request the policy covers: deny, whatever the rules said (named after the policy's reason). */
function policyOutcome(request: Request, policy: Rule, decided: Rule | undefined, reasons: Reason[]): RequestOutcome {
  const name = `${request.action}:${request.resource}`;
  const unknownPath = isPathAction(request.action) && request.resource === UNKNOWN_PATH;
  if (unknownPath && !isCatchAll(request.action, policy.pattern)) {
    return {
      request,
      effect: "deny",
      rule: policy,
      reasons: [
        {
          ...ruleReason(name, policy),
          detail: `deny — the path is not known before the command runs, and the policy rule ${request.action} "${policy.pattern}" might cover it: it cannot be shown to stay within the policy`,
        },
      ],
    };
  }
  const before = decided ? `${decided.effect} by ${describeRule(decided)}` : "ask (no rule matched)";
  return {
    request,
    effect: "deny",
    rule: policy,
    reasons: [
      {
        ...ruleReason(name, policy),
        detail: `deny — policy rule "${policy.pattern}" (policy cannot be overridden; the rules said ${before})`,
      },
      ...reasons,
    ],
  };
}

/**
 * The rule that denies every request of `action` under prepared rules — with `resource`, every
 * request naming it (an MCP tool names one): a deny covering all its resources with no rule after
 * it, in the evaluator's order, that could match and allows or asks; else the policy's rule
 * covering them all. Undefined when some request could still pass. Conservative (a saved
 * approval after a deny counts as reopening it): it only decides what the model is not offered.
 */
export function outrightDeny(rules: PreparedRules, action: Action, resource?: string): Rule | undefined {
  const covers = (rule: Rule) =>
    isCatchAll(action, rule.pattern) ||
    (resource !== undefined && matchResource(action, rule.pattern, resource, rules.ctx));
  const ordered = [...rules.configured, ...rules.saved].filter((rule) => rule.action === action);
  let last = -1;
  ordered.forEach((rule, index) => {
    if (rule.effect === "deny" && rule.when === undefined && covers(rule)) last = index;
  });
  if (last >= 0) {
    // Without a fixed resource any later allow or ask may match some request; with one, only those that match it.
    const reopens = ordered
      .slice(last + 1)
      .some((rule) => rule.effect !== "deny" && (resource === undefined || covers(rule)));
    if (!reopens) return ordered[last];
  }
  return rules.policy.filter((rule) => rule.action === action && covers(rule)).at(-1);
}

/**
 * The configured rule that decides a request: the last match, except for the rules of a
 * repository nobody trusted (`tightenOnly`). Those of one file are taken together — the file's own
 * last match for the request — and apply only when that is at least as strict as what the rules
 * before them decided (none: ask); a looser answer is left out and said so. So an untrusted
 * repository can turn allow into ask or deny, and ask into deny, but never the other way: its
 * `"read": {"**\/.env": "ask"}` does not lift the user's own deny. Rules after it (the user's
 * BOSUN_CONFIG, flags, saved approvals) decide over it as usual.
 */
function lastEffective(configured: readonly Rule[], leftOut: (reason: Omit<Reason, "rule">) => void): Rule | undefined {
  let current: Rule | undefined;
  for (let i = 0; i < configured.length; i++) {
    const rule = configured[i] as Rule;
    if (!rule.source.tightenOnly) {
      current = rule;
      continue;
    }
    // The file's block: its matching rules are consecutive (rules are sorted by layer, stably).
    let end = i;
    while (end + 1 < configured.length && sameUntrustedFile(configured[end + 1] as Rule, rule)) end++;
    const own = configured[end] as Rule;
    i = end;
    const below = current?.effect ?? "ask";
    if (STRICTNESS[own.effect] >= STRICTNESS[below]) {
      current = own;
      continue;
    }
    leftOut({
      source: own.source.file ?? `${own.source.layer} rules`,
      key: own.source.key,
      ...(own.source.line ? { line: own.source.line } : {}),
      detail: `left out: the repository's rule ${own.action} "${own.pattern}" → ${own.effect} is less strict than ${
        current ? describeRule(current) : "ask (no rule)"
      }, and a repository nobody trusted may only tighten (seat project.trust)`,
    });
  }
  return current;
}

function sameUntrustedFile(a: Rule, b: Rule): boolean {
  return a.source.tightenOnly === true && a.source.layer === b.source.layer && a.source.file === b.source.file;
}

/**
 * The call's effect from its requests' outcomes. The first reason of each request whose effect
 * is the call's effect is marked decisive (for an allow, every request's).
 */
export function summarize(outcomes: readonly RequestOutcome[]): Evaluation {
  if (outcomes.length === 0) {
    return {
      effect: "ask",
      perRequest: [],
      reasons: [{ rule: "no requests", detail: "ask — the call named nothing to check (fail closed)", decisive: true }],
    };
  }
  const effect = combine(outcomes.map((o) => o.effect));
  const reasons: Reason[] = [];
  for (const outcome of outcomes) {
    outcome.reasons.forEach((reason, index) => {
      reasons.push(index === 0 && outcome.effect === effect ? { ...reason, decisive: true } : reason);
    });
  }
  const perRequest = outcomes.map(({ request, effect, rule }) =>
    rule ? { request, effect, rule } : { request, effect },
  );
  return { effect, perRequest, reasons };
}

function describeRule(rule: Rule): string {
  return `${rule.source.layer} rule ${rule.action} "${rule.pattern}" → ${rule.effect}`;
}

function ruleReason(name: string, rule: Rule): Reason {
  return {
    rule: name,
    source: rule.source.file ?? `${rule.source.layer} rules`,
    key: rule.source.key,
    ...(rule.source.line ? { line: rule.source.line } : {}),
  };
}

function isResolvedPath(path: string): boolean {
  return isAbsolute(path) && resolve(path) === path;
}
