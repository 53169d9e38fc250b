import type { WebReach, WebVerdict } from "../../contracts/tools.js";
import { decideAddress, type Resolved } from "./address-check.js";
import { fetchHop, type HopLimits, type HopResult, resolveHost } from "./hop.js";
import { decideRedirect, hostOf } from "./redirect.js";

export interface FollowDeps {
  /** The rules for what the fetch meets; absent, nothing but public addresses of the judged host is reached. */
  web?: WebReach;
  resolve?: (host: string) => Promise<{ addresses: Resolved[] } | { error: string }>;
  fetch?: (url: URL, pinned: Resolved, limits: HopLimits) => Promise<HopResult>;
}

export type Followed =
  | { kind: "response"; url: URL; address: string; hops: string[]; response: Extract<HopResult, { status: number }> }
  /** A redirect to a host the rules do not allow outright: a new request, for the model to make. */
  | { kind: "redirect"; url: URL; to: URL; reason: string; hops: string[] }
  | { kind: "refused"; url: URL; reason: string; hops: string[] }
  | { kind: "failed"; url: URL; reason: string; hops: string[] };

export { hostOf, MAX_REDIRECTS } from "./redirect.js";

const NOBODY: WebVerdict = { effect: "ask", holder: "code", named: false, reason: "no rules to ask (fail closed)" };

/**
 * Fetches `start` (whose host the gate judged), following redirects by hand: every hop's address
 * is checked again (seat web.address, recorded), and every redirect is seat web.redirect
 * (redirect.ts, recorded): another host is the request `web:<host>` judged anew — followed only
 * when the rules allow it outright, else handed back to the model as a new URL to fetch (and so to
 * be judged, and asked about, like any call). Bounded: at most MAX_REDIRECTS, only to http(s).
 */
export async function follow(start: URL, limits: HopLimits, deps: FollowDeps = {}): Promise<Followed> {
  const judge = (resource: string) => deps.web?.judge(resource) ?? NOBODY;
  const resolve = deps.resolve ?? resolveHost;
  const fetch = deps.fetch ?? fetchHop;
  const hops: string[] = [];
  let url = start;
  for (let redirects = 0; ; redirects++) {
    hops.push(url.href);
    const host = hostOf(url);
    const resolved = await resolve(host);
    if ("error" in resolved) return { kind: "failed", url, reason: resolved.error, hops };
    const checked = decideAddress(host, resolved.addresses, judge);
    deps.web?.record({ ...checked.decision, subject: { ...checked.decision.subject, url: url.href } });
    if (!checked.ok) return { kind: "refused", url, reason: checked.reason, hops };
    const response = await fetch(url, checked.pinned, limits);
    if ("error" in response) return { kind: "failed", url, reason: response.error, hops };
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || response.status === 304 || !location) {
      return { kind: "response", url, address: checked.pinned.address, hops, response };
    }
    const redirect = decideRedirect({ from: url, status: response.status, location, followed: redirects, judge });
    deps.web?.record(redirect.decision);
    if (redirect.kind === "refused") return { kind: "refused", url, reason: redirect.reason, hops };
    if (redirect.kind === "hand back")
      return { kind: "redirect", url, to: redirect.next, reason: redirect.reason, hops };
    url = redirect.next;
  }
}
