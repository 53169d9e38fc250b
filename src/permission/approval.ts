import type { Answer } from "../seats/types.js";

export type Approval = "allow-once" | "deny";

/**
 * Seat `call.approval` when no person can be asked (bosun run): `--auto` is the person's
 * answer given in advance (allow once); otherwise code answers deny — nobody said yes.
 */
export function decideApprovalWithoutPerson(input: { auto: boolean; tool: string }): Answer<Approval> {
  if (input.auto) {
    return {
      holder: "person",
      answer: "allow-once",
      reasons: [
        {
          rule: "approved in advance",
          detail: `--auto allows ${input.tool} this once`,
          source: "--auto",
          decisive: true,
        },
      ],
    };
  }
  return {
    holder: "code",
    answer: "deny",
    reasons: [
      { rule: "no person to ask", detail: "nothing interactive is attached and --auto was not given", decisive: true },
    ],
  };
}

export const NOBODY_CAN_APPROVE =
  "Denied: this call needs approval and nobody can approve it in this run (no person attached; the user did not pass --auto). Do not retry it; finish with what you can do without it, and say what needs approval.";
