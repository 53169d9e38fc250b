import type { Decision, Reason } from "../../contracts/decisions.js";
import type { WebReach, WebVerdict } from "../../contracts/tools.js";
import { type Policy, policyDenials } from "../rules/policy.js";
import { type AuthorityContext, authorize } from "./authorize.js";

/**
 * What a web tool asks while it runs, about what the call's own request did not name: a
 * redirect's new host, the address a host resolved to. Judged as a `web:` request of the call
 * would be — every rule layer, the mode, the policy — and `--auto` answers an ask with yes, as it
 * would at the gate. Nobody is asked mid-call: an ask is for the tool to treat as not allowed.
 */
export function webReach(
  deps: { authority: AuthorityContext; policy: Policy; auto: boolean },
  record: (decision: Decision) => void,
): WebReach {
  return { judge: (resource) => judgeWeb(deps, resource), record };
}

export function judgeWeb(
  deps: { authority: AuthorityContext; policy: Policy; auto: boolean },
  resource: string,
): WebVerdict {
  const requests = [{ action: "web" as const, resource }];
  const { workspace, home } = deps.authority;
  const policy = policyDenials(requests, deps.policy.rules, { workspace, home })[0];
  if (policy) {
    return {
      effect: "deny",
      holder: "policy",
      named: false,
      reason: `web:${resource} denied by policy rule "${policy.rule.pattern}"`,
    };
  }
  const answer = authorize({ requests }, deps.authority);
  const outcome = answer.outcomes[0];
  const rule = outcome?.rule;
  const layer = rule?.source.layer;
  // Named: a rule someone wrote for exactly this resource, not a pattern that happens to cover it.
  const named =
    answer.answer === "allow" &&
    rule !== undefined &&
    layer !== "default" &&
    layer !== "mode" &&
    !/[*?[\]{}]/.test(rule.pattern) &&
    rule.pattern === resource;
  const reason = describe(answer.reasons, resource);
  if (answer.answer === "ask" && deps.auto) {
    return { effect: "allow", holder: "person", named: false, reason: `${reason}; --auto answers the ask` };
  }
  return { effect: answer.answer, holder: answer.holder, named, reason };
}

function describe(reasons: readonly Reason[], resource: string): string {
  const reason = reasons.find((r) => r.decisive) ?? reasons[0];
  if (!reason) return `web:${resource}: no rule`;
  const where = reason.source ? ` (${reason.source})` : "";
  return `${reason.rule}${reason.detail ? `: ${reason.detail}` : ""}${where}`;
}
