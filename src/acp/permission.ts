import type { PermissionOption, RequestPermissionOutcome } from "@agentclientprotocol/sdk";
import type { ApprovalRequest, PersonReply } from "../permission/gate/approval.js";

/** The surface the editor's answers come through, for the record (call.approval's reasons). */
export const VIA_EDITOR = "the editor (ACP)";

const ONCE = "allow-once";
const REJECT = "reject";
const ALWAYS = "allow-always-";

/**
 * The options an ask offers the editor: allow once, each "always" the terminal would offer
 * (the same narrow rules, saved the same way), and reject. No "always" when bosun offers none
 * for the call (the reason is in the ask's text).
 */
export function permissionOptions(request: ApprovalRequest): PermissionOption[] {
  return [
    { optionId: ONCE, name: "Allow once", kind: "allow_once" },
    ...request.always.options.map(
      (option, index): PermissionOption => ({
        optionId: `${ALWAYS}${index}`,
        name: `Always allow ${option.label}`,
        kind: "allow_always",
      }),
    ),
    { optionId: REJECT, name: "Reject", kind: "reject_once" },
  ];
}

/**
 * The editor's answer as the person's: the option they picked, through the editor. `cancelled`
 * (the prompt turn was cancelled, or the person dismissed the ask) is the person leaving the
 * prompt: the call is denied and the turn stops. An option that was not offered is nobody's
 * answer: denied by code.
 */
export function replyOf(request: ApprovalRequest, outcome: RequestPermissionOutcome): PersonReply {
  if (outcome.outcome === "cancelled") return { kind: "cancel", via: VIA_EDITOR };
  const id = outcome.optionId;
  if (id === ONCE) return { kind: "once", via: VIA_EDITOR };
  if (id === REJECT) return { kind: "deny", via: VIA_EDITOR };
  const option = id.startsWith(ALWAYS) ? request.always.options[Number(id.slice(ALWAYS.length))] : undefined;
  if (option && /^\d+$/.test(id.slice(ALWAYS.length))) return { kind: "always", option, via: VIA_EDITOR };
  return { kind: "unanswered", why: `the editor answered "${id}", which was not an option offered`, via: VIA_EDITOR };
}

/** What the ask says beside the call: the requests that ask, why it could not be analysed, who asks. */
export function askText(request: ApprovalRequest): string {
  const asking = request.outcomes.filter((o) => o.effect === "ask");
  const lines = asking.map((o) => `asks: ${o.request.action} ${o.request.resource}`);
  if (request.problem) lines.push(`not fully analysed: ${request.problem}`);
  if (request.from)
    lines.push(
      `asked by delegate ${request.from.agent}${request.from.description ? ` (${request.from.description})` : ""}`,
    );
  if (request.always.unavailable) lines.push(`no "always": ${request.always.unavailable}`);
  if (request.preview) lines.push("", request.preview);
  return lines.join("\n");
}
