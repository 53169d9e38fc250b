import { type Answer, answeredThrough, type Reason } from "../../contracts/decisions.js";
import type { Face } from "../../util/face.js";
import { type AlwaysOffer, type AlwaysOption, formatAlwaysRule } from "../rules/always.js";
import type { Judged } from "./authorize.js";

/** What the person (or code, with nobody to ask) answered. */
export type Approval = "allow-once" | "allow-always" | "deny" | "deny-with-message";

/** Everything the person is shown before answering: the tool, the exact requests, a diff for edits. */
export interface ApprovalRequest {
  tool: string;
  callId: string;
  input: Record<string, unknown>;
  /** Every request of the call with the rules' answer for it; the asking ones are what needs approval. */
  outcomes: readonly Judged[];
  /** Why the call could not be fully analysed, when it could not (then it asks as a whole). */
  problem?: string;
  preview?: string;
  always: AlwaysOffer;
  /** Set when a delegate asks: which agent, on which task, in which session (the person answers for it as for the parent). */
  from?: { agent: string; description?: string; session: string };
}

export type PersonReply = (
  | { kind: "once" }
  | { kind: "always"; option: AlwaysOption }
  | { kind: "deny"; message?: string }
  /** The person left the prompt (Ctrl-C, Esc): the call is denied and the turn stops. */
  | { kind: "cancel" }
  /** Nobody answered (a client disconnected, the wait ran out): denied by code, the turn goes on. */
  | { kind: "unanswered"; why: string }
) & {
  /** The surface the answer came through when not this terminal (a server's client, an editor), for the record. */
  via?: string;
};

/**
 * Asks a person. The terminal's adapter is prompt-terminal.ts; the TUI and editors bring their
 * own. While `ask` is pending nothing else runs for the call.
 */
export interface ApprovalPrompt {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<PersonReply>;
}

/** Seat `call.approval` with a person at the prompt: whatever they answered, recorded as theirs (and where it came from). */
export function approvalFromReply(reply: PersonReply): Answer<Approval> {
  return answeredThrough(answerOf(reply), reply.via);
}

function answerOf(reply: PersonReply): Answer<Approval> {
  switch (reply.kind) {
    case "once":
      return {
        holder: "person",
        answer: "allow-once",
        reasons: [{ rule: "the person allowed it once", decisive: true }],
      };
    case "always":
      return {
        holder: "person",
        answer: "allow-always",
        reasons: [
          {
            rule: "the person allowed it always",
            detail: `saved for this project: ${reply.option.rules.map(formatAlwaysRule).join(", ")}`,
            decisive: true,
          },
        ],
      };
    case "deny":
      return reply.message
        ? {
            holder: "person",
            answer: "deny-with-message",
            reasons: [{ rule: "the person denied it", detail: reply.message, decisive: true }],
          }
        : { holder: "person", answer: "deny", reasons: [{ rule: "the person denied it", decisive: true }] };
    case "unanswered":
      return {
        holder: "code",
        answer: "deny",
        reasons: [{ rule: "nobody answered", detail: reply.why, decisive: true }],
      };
    case "cancel":
      return {
        holder: "person",
        answer: "deny",
        reasons: [
          { rule: "the person left the prompt", detail: "the call is denied and the turn stops", decisive: true },
        ],
      };
  }
}

/**
 * Seat `call.approval` when no person can be asked (bosun run without a terminal): code answers.
 * With `--auto` — the person's answer given in advance, for every call — it allows this call once;
 * without it, nobody said yes, so it denies. Either way no person saw this call: holder code.
 */
export function decideApprovalWithoutPerson(input: {
  auto: boolean;
  tool: string;
  /**
   * Why only a person who sees the call may allow it — it could not be analysed, or a deny no mask
   * keeps might cover a path known only when it runs: --auto does not cover such a call.
   */
  undescribed?: string;
  /** The narrow `--allow` flags that would let this call run (allow-hint.ts), when there are. */
  narrow?: readonly string[];
}): Answer<Approval> {
  if (input.auto && input.undescribed !== undefined) {
    return {
      holder: "code",
      answer: "deny",
      reasons: [
        {
          rule: "--auto does not cover it",
          detail: `${input.undescribed}; only a person who sees this call can allow it`,
          source: "--auto",
          decisive: true,
        },
      ],
    };
  }
  const reason: Reason = input.auto
    ? {
        rule: "approved in advance",
        detail: `--auto allows ${input.tool} this once (nobody saw this call)`,
        source: "--auto",
        decisive: true,
      }
    : { rule: "no person to ask", detail: "nothing interactive is attached and --auto was not given", decisive: true };
  const fix: Reason[] =
    !input.auto && input.narrow && input.narrow.length > 0
      ? [{ rule: NARROW_FIX, detail: `${input.narrow.join(" ")} (checked: the call would be allowed)` }]
      : [];
  return { holder: "code", answer: input.auto ? "allow-once" : "deny", reasons: [reason, ...fix] };
}

/** The reason of a denied `call.approval` that names the flags that would allow the call. */
export const NARROW_FIX = "narrow fix";

/**
 * What a refusal with nobody to ask advises. `cli`: the narrow flags when there are, else --auto
 * (unless it would not cover it). `tui`: the interactive session's own ways — answer the dialog
 * when it asks, or `/mode auto` — never a flag the session cannot take.
 */
export function approvalAdvice(reasons: readonly Reason[], face: Face = "cli"): string {
  const onlyPerson = reasons.some((r) => r.source === "--auto");
  if (face === "tui") {
    return onlyPerson
      ? "only you can allow it, in the approval dialog when it asks"
      : "allow it in the approval dialog when it asks (a: always saves the rule), or switch with /mode auto to approve every ask";
  }
  const narrow = reasons.find((r) => r.rule === NARROW_FIX)?.detail?.replace(/ \(checked: .*\)$/, "");
  if (narrow) return `run with ${narrow} to allow it (or --auto to approve every ask)`;
  if (onlyPerson) return "only a person at a terminal can allow it";
  return "run with --auto to approve";
}

export const NOBODY_CAN_APPROVE =
  "Denied: this call needs approval and nobody can approve it in this run (no person attached; the user did not pass --auto). Do not retry it; finish with what you can do without it, and say what needs approval.";

/** What the model is told when nobody could approve, with the flags that would allow the call when there are. */
export function nobodyCanApprove(narrow?: readonly string[]): string {
  return narrow && narrow.length > 0
    ? `${NOBODY_CAN_APPROVE} The user can allow exactly this call with ${narrow.join(" ")}.`
    : NOBODY_CAN_APPROVE;
}

/** What the model is told when the person denies a call, with their message when they gave one. */
export function deniedByPerson(message?: string): string {
  return message
    ? `Denied by the user, who says: ${message}`
    : "Denied by the user. Do not retry this call; ask them or take another way.";
}
