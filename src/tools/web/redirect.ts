import type { Decision, Holder, Reason } from "../../contracts/decisions.js";
import type { WebVerdict } from "../../contracts/tools.js";

/** Redirects followed before the fetch gives up. */
export const MAX_REDIRECTS = 5;

/** `web:` names a host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

export type RedirectAnswer =
  /** Fetched next: the same host, or another the rules allow outright (its address is still checked). */
  | { kind: "follow"; next: URL; decision: Decision }
  /** Another host the rules would ask about: a new request for the model to make, judged like any call. */
  | { kind: "hand back"; next: URL; reason: string; decision: Decision }
  | { kind: "refused"; reason: string; decision: Decision };

/**
 * Seat `web.redirect`: whether a fetch follows the redirect its server answered with. Pure: the
 * caller records the decision. Same host → followed (code). Another host is the request
 * `web:<host>` judged anew: allowed outright → followed, held by whoever allowed it; denied →
 * refused; asked → handed back, since nobody is asked mid-fetch. Not a URL, not http(s), or past
 * MAX_REDIRECTS → refused by code.
 */
export function decideRedirect(input: {
  from: URL;
  status: number;
  location: string;
  /** Redirects already followed in this fetch. */
  followed: number;
  judge: (resource: string) => WebVerdict;
}): RedirectAnswer {
  const { from, status, location } = input;
  const subject = { from: from.href, location };
  const made = (answer: string, holder: Holder, reason: Reason): Decision => ({
    seat: "web.redirect",
    holder,
    answer,
    reasons: [{ ...reason, decisive: true }],
    subject,
  });
  const refuse = (reason: string, holder: Holder = "code") => ({
    kind: "refused" as const,
    reason,
    decision: made("refused", holder, { rule: "refused", detail: reason }),
  });
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return refuse(`redirected (${status}) to "${location}", which is no URL`);
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    return refuse(`redirected to ${next.protocol} (only http and https are fetched)`);
  }
  if (input.followed >= MAX_REDIRECTS) {
    return refuse(`more than ${MAX_REDIRECTS} redirects (last to ${next.href})`);
  }
  const host = hostOf(next);
  if (host === hostOf(from)) {
    const detail = `${status} to ${next.href}: the same host, its address checked again`;
    return { kind: "follow", next, decision: made("followed", "code", { rule: "same host", detail }) };
  }
  const verdict = input.judge(host);
  const what = `redirected to ${next.href}: web:${host} is a new request`;
  if (verdict.effect === "allow") {
    const detail = `${what}, allowed outright — ${verdict.reason}`;
    return { kind: "follow", next, decision: made("followed", verdict.holder, { rule: "allowed", detail }) };
  }
  if (verdict.effect === "deny") return refuse(`${what}, denied — ${verdict.reason}`, verdict.holder);
  const reason = `${what}, not allowed outright — ${verdict.reason}`;
  return {
    kind: "hand back",
    next,
    reason,
    decision: made("handed back", verdict.holder, { rule: "asks", detail: reason }),
  };
}
