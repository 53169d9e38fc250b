import type { RecordedDecision } from "../../contracts/decisions.js";
import type { RunEvent, TurnOutcome, TurnStatus } from "../../loop/turn.js";
import type { ApprovalRequest, PersonReply } from "../../permission/gate/approval.js";
import type { StreamData } from "./client.js";

/** The stream's envelope, not the event: what `bosun run --format json` adds to every line. */
const ENVELOPE = new Set(["v", "seq", "type", "session"]);

/** A stream event back as the run event it was (the inverse of runtime/stream-event.ts), for the TUI to show. */
export function runEventOf(data: StreamData): RunEvent | undefined {
  const fields = Object.fromEntries(Object.entries(data).filter(([key]) => !ENVELOPE.has(key)));
  if (data.type === "decision") {
    const { ledgerSeq, ...decision } = fields;
    return { type: "decision", decision: { ...decision, seq: ledgerSeq } as RecordedDecision };
  }
  if (["session", "done", "ask", "question", "gap", "warning", "deleted"].includes(data.type)) return undefined;
  return { type: data.type, ...fields } as RunEvent;
}

/** How a turn ended, from its `done` event. */
export function outcomeOf(data: StreamData): TurnOutcome {
  const status = String(data.status ?? "failed");
  const known: TurnStatus[] = ["done", "limit", "repeat", "failed", "cancelled", "blocked"];
  return {
    // "denied" is a done turn with denials (the terminal shows it so too).
    status: status === "denied" ? "done" : known.includes(status as TurnStatus) ? (status as TurnStatus) : "failed",
    steps: Number(data.steps ?? 0),
    denied: Number(data.denied ?? (status === "denied" ? 1 : 0)),
    lastText: String(data.result ?? ""),
    ...(typeof data.message === "string" ? { message: data.message } : {}),
  };
}

/** An ask from the server as the TUI's approval dialog draws it: the call, its requests, what "always" saves. */
export function askRequestOf(data: StreamData): ApprovalRequest {
  const requests = (data.requests as Array<{ action: string; resource: string; effect: string }>) ?? [];
  const always = (data.always as string[]) ?? [];
  return {
    tool: String(data.tool),
    callId: String(data.call),
    input: (data.input as Record<string, unknown>) ?? {},
    outcomes: requests.map((r) => ({
      request: { action: r.action, resource: r.resource } as ApprovalRequest["outcomes"][number]["request"],
      effect: r.effect as "allow" | "ask" | "deny",
      reasons: [],
      holder: "config",
    })),
    ...(typeof data.problem === "string" ? { problem: data.problem } : {}),
    ...(typeof data.preview === "string" ? { preview: data.preview } : {}),
    // The rules an option saves stay the server's: the person picks one by its label.
    always: {
      options: always.map((label) => ({ label, rules: [] })),
      ...(typeof data.alwaysUnavailable === "string" ? { unavailable: data.alwaysUnavailable } : {}),
    },
    ...(data.from ? { from: data.from as NonNullable<ApprovalRequest["from"]> } : {}),
  };
}

/** The person's reply as the server takes it: an "always" names its option by its place in the offer. */
export function answerOf(reply: PersonReply, request: ApprovalRequest): Record<string, unknown> {
  switch (reply.kind) {
    case "once":
      return { reply: "once" };
    case "always":
      return { reply: "always", option: Math.max(0, request.always.options.indexOf(reply.option)) };
    case "deny":
      return { reply: "deny", ...(reply.message ? { message: reply.message } : {}) };
    default:
      return { reply: "deny", message: "the person left the prompt" };
  }
}
