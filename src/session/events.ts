import type { ModelToolCall } from "../contracts/tool-calls.js";

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
  /** Attached files (`-f`): text, or an image (base64) sent to models that take images. */
  files?: Array<{ path: string; content: string; image?: { mediaType: string; data: string } }>;
}

/** bosun's own message to the model; `kind` marks the ones bosun looks up again (the last environment sent). */
export interface Notice {
  text: string;
  kind?: "environment" | "instructions";
  /** For instructions added on a read: the file's path. */
  path?: string;
}

export interface AssistantMessage {
  text: string;
  toolCalls: ModelToolCall[];
  finish: string;
  model: string;
  step: number;
  /** "complete", or "interrupted" when the stream broke after output (partial text kept). */
  status: "complete" | "interrupted" | "failed" | "aborted";
}

export interface CallStarted {
  id: string;
  name: string;
  /** The prepared input: parsed, repaired and validated, so always an object. */
  input: Record<string, unknown>;
  /** The step of the turn; 0 for a command the person ran between turns (`!cmd`, a custom command's span). */
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
  /** Images the call returned (read of a picture): sent after the results to models that take images. */
  images?: Array<{ path: string; mediaType: string; data: string }>;
}
