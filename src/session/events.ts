import type { ModelToolCall } from "../model/attempt.js";

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

export interface UserMessage {
  text: string;
  files?: Array<{ path: string; content: string }>;
}

export interface AssistantMessage {
  text: string;
  toolCalls: ModelToolCall[];
  finish: string;
  model: string;
  step: number;
  /** "complete", or "interrupted" when the stream broke after output (partial text kept). */
  status: string;
}

export interface CallStarted {
  id: string;
  name: string;
  input: unknown;
  step: number;
}

export interface CallFinished {
  id: string;
  name: string;
  /** What the model sees (already bounded). */
  output: string;
  isError: boolean;
  summary: string;
  metadata?: Record<string, unknown>;
}
