import type { Decision, Reason } from "../../contracts/decisions.js";
import type { WebVerdict } from "../../contracts/tools.js";
import { classifyAddress } from "./address.js";

export interface Resolved {
  address: string;
  family: 4 | 6;
}

export type AddressAnswer =
  | { ok: true; pinned: Resolved; decision: Decision }
  | { ok: false; reason: string; decision: Decision };

/**
 * Seat `web.address`: may a web tool connect to what `host` resolved to? Pure. Each address is
 * judged as the request `web:<ip>`: a rule that denies it refuses it; an address inside this
 * machine or its networks (loopback, private, link-local, carrier-grade NAT, unique-local, cloud
 * metadata — IPv4 carried in IPv6 counted as itself) only when an allow rule names that address
 * or the host exactly (`web:127.0.0.1`): a wildcard allow (`web:*`) was written for the web, not
 * for what lies behind it. The first address that passes is the one connected to (pinned), so a
 * second lookup cannot swap in another; when none passes, the call is refused with the first's reason.
 */
export function decideAddress(
  host: string,
  resolved: readonly Resolved[],
  judge: (resource: string) => WebVerdict,
): AddressAnswer {
  const reasons: Reason[] = [];
  let refusal: { holder: Decision["holder"]; reason: string } | undefined;
  for (const candidate of resolved) {
    const ip = candidate.address;
    const kind = classifyAddress(ip);
    const verdict = judge(ip);
    if (verdict.effect === "deny") {
      const reason = `${ip}: ${verdict.reason}`;
      reasons.push({ rule: `web:${ip}`, detail: `refused — ${verdict.reason}` });
      refusal ??= { holder: verdict.holder, reason };
      continue;
    }
    if (kind.public) {
      reasons.unshift({ rule: `web:${ip}`, detail: "a public address", decisive: true });
      return { ok: true, pinned: candidate, decision: decision(host, ip, "allowed", "code", reasons) };
    }
    const byHost = host === ip ? verdict : judge(host);
    const naming = verdict.named ? verdict : byHost.named ? byHost : undefined;
    const what = `${kind.name} (${kind.range})`;
    if (naming) {
      reasons.unshift({ rule: `web:${ip}`, detail: `${what}, allowed by name: ${naming.reason}`, decisive: true });
      return { ok: true, pinned: candidate, decision: decision(host, ip, "allowed", naming.holder, reasons) };
    }
    const reason = `${ip} is ${what}: reached only when an allow rule names it (web:${ip}${host === ip ? "" : ` or web:${host}`})`;
    reasons.push({ rule: `web:${ip}`, detail: `refused — ${what}; no allow rule names it` });
    refusal ??= { holder: "code", reason };
  }
  if (!refusal) {
    const none = `${host} resolved to no address`;
    return {
      ok: false,
      reason: none,
      decision: decision(host, "", "refused", "code", [{ rule: "none", detail: none }]),
    };
  }
  const first = reasons[0];
  if (first) reasons[0] = { ...first, decisive: true };
  const address = resolved[0]?.address ?? "";
  return { ok: false, reason: refusal.reason, decision: decision(host, address, "refused", refusal.holder, reasons) };
}

function decision(
  host: string,
  address: string,
  answer: "allowed" | "refused",
  holder: Decision["holder"],
  reasons: Reason[],
): Decision {
  return { seat: "web.address", holder, answer, reasons, subject: { host, address } };
}
