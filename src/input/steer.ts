import type { Decision } from "../contracts/decisions.js";

/** A message typed while the agent works, and how it is to be delivered. */
export interface PendingMessage {
  text: string;
  how: "steer" | "queue";
  /** The person chose `how` (Tab); otherwise it is code's default, steer. */
  chosen: boolean;
  /** A command (`/why`, `!ls`, a custom command) always waits for the work to end: it is run then, not sent as text. */
  kind?: "text" | "command";
}

/**
 * Seat `input.steer`: what became of a message typed during a turn — delivered at a step
 * boundary (steer), after the turn (queue), or dropped (Ctrl-X, always the person's).
 */
export function steerDecision(
  message: PendingMessage,
  answer: "steer" | "queue" | "drop",
  /** `enter`: the person sent a held message (Enter after an interrupt); `exit`: left waiting when the session ended. */
  cause?: "enter" | "exit",
): Decision {
  if (cause) {
    const detail =
      cause === "enter"
        ? "held after an interrupt; the person sent it with Enter"
        : "still waiting when the person ended the session: never delivered";
    return {
      seat: "input.steer",
      holder: "person",
      answer,
      reasons: [
        { rule: "typed while the agent worked", detail: preview(message.text) },
        { rule: cause === "enter" ? "the person sent it" : "the person left", detail, decisive: true },
      ],
    };
  }
  // A steering message the turn ended before taking goes next, as if queued: code's doing.
  const late = answer === "queue" && message.how === "steer";
  const command = message.kind === "command";
  const byPerson = answer === "drop" || (message.chosen && !late && !command);
  const detail =
    answer === "drop"
      ? "dropped with Ctrl-X before it was delivered"
      : answer === "steer"
        ? "delivered at the next step boundary of the running turn"
        : command
          ? "a command is run once the work before it has ended, never sent as steering text"
          : late
            ? "the turn ended before another step; delivered as the next message"
            : "delivered as the next message once the turn ended";
  const rule = command ? "a command waits" : late ? "no step left to steer" : "default: steer";
  return {
    seat: "input.steer",
    holder: byPerson ? "person" : "code",
    answer,
    reasons: [
      { rule: "typed while the agent worked", detail: preview(message.text) },
      byPerson ? { rule: "the person chose", detail, decisive: true } : { rule, detail, decisive: true },
    ],
  };
}

function preview(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
