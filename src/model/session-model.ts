import { readDecisions, recordDecision } from "../seats/record.js";
import type { SessionInfo, SessionStore } from "../store/session-store.js";
import type { ResolvedModel } from "./resolve.js";
import { decideModel, type SelectionInputs } from "./select.js";

/**
 * The model a session last ran with: the answer of its latest `model.select` decision, leaving
 * out those a custom command made for its own turn (the session goes back to its model after).
 */
export function lastSessionModel(store: SessionStore, sessionId: string): string | undefined {
  const last = readDecisions(store, sessionId)
    .filter((d) => d.seat === "model.select" && d.subject?.command === undefined)
    .at(-1);
  return typeof last?.answer === "string" ? last.answer : undefined;
}

/**
 * Seat `model.select` for a session: decides with the session's own model as a candidate and
 * records the answer. A model that cannot be used throws before anything is recorded.
 */
export function selectSessionModel(
  store: SessionStore,
  session: SessionInfo,
  inputs: Omit<SelectionInputs, "sessionModel">,
): ResolvedModel {
  const sessionModel = lastSessionModel(store, session.id);
  const { resolved, ...decision } = decideModel({ ...inputs, ...(sessionModel ? { sessionModel } : {}) });
  recordDecision(store, session.id, {
    seat: "model.select",
    ...decision,
    // Chosen for one command's turn only: not the session's model from then on.
    ...(inputs.command ? { subject: { command: inputs.command.name } } : {}),
  });
  return resolved;
}
