import type { Decision, RecordedDecision } from "../contracts/decisions.js";
import type { ToolProgress } from "../contracts/tools.js";
import { recordDecision } from "../seats/record.js";
import { type CallFinished, type CallStarted, EV, type Notice } from "../session/events.js";
import type { SessionStore } from "../store/session-store.js";
import { lastLines } from "../util/lines.js";

/** What a face is shown of calls as they go (the loop's RunEvent carries these too). */
export type CallEvent =
  | { type: "tool_call"; id: string; name: string; input: unknown }
  | {
      type: "tool_result";
      id: string;
      name: string;
      summary: string;
      isError: boolean;
      /** What a person sees on expanding the call: an edit's diff, a command's output and status. */
      detail?: string;
    }
  /** How far a running call has come (an MCP server's progress): shown only, the latest replacing the one before. */
  | { type: "tool_progress"; id: string; name: string; progress: number; total?: number; message?: string }
  | { type: "decision"; decision: RecordedDecision };

/**
 * What the call pipeline writes to the session: its decisions, each call's write-ahead record and
 * its outcome. Whoever made the recorder is shown each as it is written (the same words as the
 * ledger), so the pipeline never holds the store or the face itself.
 */
export interface CallRecorder {
  /** Records a decision in the ledger, and shows it. */
  decision(decision: Decision): void;
  /** Shown only: a call as the model wrote it, before it is prepared. */
  asked(call: { id: string; name: string; input: unknown }): void;
  /** Write-ahead: the call is on record before it runs. `durable` waits for the disk. */
  started(call: CallStarted, durable: boolean): void;
  /** The call's outcome (its output already bounded); `detail` is for a person who expands it. */
  finished(call: CallFinished, detail?: string): void;
  /** Shown only: how far a running call has come, as its tool says. */
  progress?(call: { id: string; name: string }, update: ToolProgress): void;
  /** The call was stopped before it ended (or before it started). */
  cancelled(call: { id: string; name: string }, summary: string): void;
  /** bosun's message to the model, joining the conversation (what a person's command brought, say). */
  notice(notice: Notice): void;
}

/** Lines of a failed call's output shown on expansion when its tool gave no detail of its own. */
const DETAIL_LINES = 40;

/** The recorder of one session's journal; `show` is told what is written (a face's events). */
export function sessionRecorder(
  store: SessionStore,
  sessionId: string,
  show: (event: CallEvent) => void = () => {},
): CallRecorder {
  return {
    decision: (decision) => show({ type: "decision", decision: recordDecision(store, sessionId, decision) }),
    asked: (call) => show({ type: "tool_call", ...call }),
    started: (call, durable) => {
      store.append(sessionId, EV.callStarted, call, { durable });
    },
    finished: (call, detail) => {
      store.append(sessionId, EV.callFinished, call);
      // A call that failed shows why on expansion (the end of its output), when its tool gave no detail.
      const shown = detail ?? (call.isError ? lastLines(call.output, DETAIL_LINES) : undefined);
      show({
        type: "tool_result",
        id: call.id,
        name: call.name,
        summary: call.summary,
        isError: call.isError,
        ...(shown ? { detail: shown } : {}),
      });
    },
    progress: (call, update) => show({ type: "tool_progress", ...call, ...update }),
    cancelled: (call, summary) => {
      store.append(sessionId, EV.callCancelled, { id: call.id, name: call.name });
      show({ type: "tool_result", id: call.id, name: call.name, summary, isError: true });
    },
    notice: (notice) => {
      store.append(sessionId, EV.notice, notice);
    },
  };
}
