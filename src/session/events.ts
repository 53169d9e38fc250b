import type { z } from "zod";
import type { Decision } from "../contracts/decisions.js";
import type { DECISION_EVENT } from "../seats/record.js";
import type { EVENT_SCHEMAS } from "./schemas.js";

/**
 * Event types of the conversation, as stored in the session's log. The conversation sent to the
 * model is a projection of these (conversation.ts); nothing else holds it.
 */
export const EV = {
  user: "message.user",
  assistant: "message.assistant",
  notice: "message.notice",
  callStarted: "call.started",
  callFinished: "call.finished",
  callInterrupted: "call.interrupted",
  callCancelled: "call.cancelled",
  turnEnded: "turn.ended",
} as const;

type Schemas = typeof EVENT_SCHEMAS;

/**
 * Event type -> the type of its data: what `append` takes and a read gives (journal.ts). Each
 * event is declared once, by its schema (schemas.ts EVENT_SCHEMAS); its type is inferred from it,
 * so what the code writes and what an import is checked against are one declaration. (Type
 * imports only: this module loads no zod.) A decision keeps the Decision type of contracts/,
 * which seats/ below this layer writes; its schema is checked to accept it.
 */
export type EventMap = {
  [T in keyof Schemas]: T extends typeof DECISION_EVENT ? Decision : z.output<Schemas[T]>;
};

/** Every event type bosun records: the stored `type` column. */
export type EventType = keyof EventMap;

export type UserMessage = EventMap[typeof EV.user];
export type Notice = EventMap[typeof EV.notice];
export type AssistantMessage = EventMap[typeof EV.assistant];
export type CallStarted = EventMap[typeof EV.callStarted];
export type CallFinished = EventMap[typeof EV.callFinished];
export type CallRef = EventMap[typeof EV.callInterrupted];
export type TurnEnded = EventMap[typeof EV.turnEnded];
export type SessionCreated = EventMap["session.created"];
