import type { Decision } from "../contracts/decisions.js";
import type { QuestionPrompt } from "../contracts/question.js";
import type { PromptHooks } from "../loop/prompt.js";
import type { StopHooks } from "../loop/stop.js";
import type { CompactHooks } from "../loop/window.js";
import type { GateDeps } from "../permission/gate/gate.js";
import { EV } from "../session/events.js";
import type { SessionStore } from "../store/session-store.js";

/**
 * A session's lifecycle hooks as a turn's deps: run through the gate as things stand (so a
 * repository's run only once project.command let them, confined). Only a session's own turn
 * gets them; a delegate's turn has none.
 */
export function lifecycleDeps(gate: () => Readonly<GateDeps>): {
  stopHooks: StopHooks;
  promptHooks: PromptHooks;
  preCompact: CompactHooks;
} {
  // Loaded when a turn ends or starts, not at start-up.
  const lifecycle = () => import("../permission/gate/lifecycle.js");
  return {
    stopHooks: async (stop) => (await lifecycle()).runStopHooks(gate(), stop),
    promptHooks: async (prompt) => (await lifecycle()).runPromptHooks(gate(), prompt),
    preCompact: async (trigger) => (await lifecycle()).runCompactHooks(gate(), trigger),
  };
}

/**
 * The person's question prompt (an MCP server's form) with the notification hooks of the gate as
 * things stand told before each question (seat person.notify); their code loaded on the first.
 */
export function notifyingQuestionPrompt(gate: () => Readonly<GateDeps>, prompt: QuestionPrompt): QuestionPrompt {
  return {
    askQuestion: async (question, signal) =>
      (await import("../permission/gate/notify-hook.js"))
        .notifyingQuestions(gate, prompt)
        .askQuestion(question, signal),
  };
}

/** A delegate's turn: only its end is hooked (subagent_stop, seat turn.stop_hook), the delegate's agent named. */
export function delegateLifecycleDeps(gate: () => Readonly<GateDeps>, agent: string): { stopHooks: StopHooks } {
  return {
    stopHooks: async (stop) =>
      (await import("../permission/gate/lifecycle.js")).runStopHooks(gate(), stop, "subagent_stop", agent),
  };
}

/**
 * Seat `session.start_hook`: the session_start hooks run as the session opens, each answer
 * recorded, and what they add put in the conversation as one notice the model reads before the
 * next message. A hook that breaks adds nothing; the session goes on.
 */
export async function sessionStartHooks(input: {
  gate: Readonly<GateDeps>;
  store: SessionStore;
  sessionId: string;
  resumed: boolean;
  record: (decision: Decision) => void;
}): Promise<void> {
  if (!input.gate.hooks.some((h) => h.event === "session_start")) return;
  const { runStartHooks } = await import("../permission/gate/lifecycle.js");
  const verdicts = await runStartHooks(input.gate, input.resumed ? "resume" : "startup");
  const added: string[] = [];
  for (const { context, hook, ...verdict } of verdicts) {
    input.record({ seat: "session.start_hook", ...verdict, subject: { hook, event: "session_start" } });
    if (context) added.push(`[hook ${hook}] ${context}`);
  }
  if (added.length > 0) input.store.append(input.sessionId, EV.notice, { text: added.join("\n\n") });
}
