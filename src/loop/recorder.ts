import { type CallEvent, type CallRecorder, sessionRecorder } from "../calls/recorder.js";
import type { ResolvedModel } from "../model/resolve.js";
import { recordUsage } from "../model/session-usage.js";
import type { Usage } from "../model/usage.js";
import { type AssistantMessage, EV, type UserMessage } from "../session/events.js";
import type { FilesSnapshot } from "../session/turns.js";
import type { SessionStore } from "../store/session-store.js";

/**
 * What a turn writes to the session: the call pipeline's records, and the turn's own — the
 * person's messages, bosun's notices, the model's replies and their usage, how the turn ended.
 * The loop writes only through this; the journal behind it is the session's store.
 */
export interface TurnRecorder extends CallRecorder {
  user(message: UserMessage): void;
  assistant(message: AssistantMessage): void;
  /** A model request's tokens; returns its cost when the model's prices are known. */
  usage(model: ResolvedModel, usage: Usage): number | undefined;
  /** How the turn ended: waits for the disk. */
  ended(end: { status: string; steps: number; message?: string }): void;
  /** A snapshot of the work tree taken for undo, or why none was. */
  snapshot(snapshot: FilesSnapshot): void;
  /** Several records as one: all or none. */
  atomically(write: () => void): void;
}

export function turnRecorder(store: SessionStore, sessionId: string, show: (event: CallEvent) => void): TurnRecorder {
  return {
    ...sessionRecorder(store, sessionId, show),
    user: (message) => {
      store.append(sessionId, EV.user, message);
    },
    assistant: (message) => {
      store.append(sessionId, EV.assistant, message);
    },
    usage: (model, usage) => recordUsage(store, sessionId, model, usage),
    ended: (end) => {
      store.append(sessionId, EV.turnEnded, end, { durable: true });
    },
    snapshot: (snapshot) => {
      store.append(sessionId, "files.snapshot", snapshot);
    },
    atomically: (write) => store.atomically(write),
  };
}
