import type { DelegateEvent, RunEvent } from "../loop/turn.js";

// No Ink here, like events.ts: the transcript's state is plain data.

/** Where a delegate is: waiting for a slot of the pool, running, or how its turn ended. */
export type DelegateState = Exclude<DelegateEvent["state"], "event">;

/** One call a delegate made, as its line under the task shows it; a task call has its own delegate. */
export interface DelegateCall {
  id: string;
  name: string;
  title: string;
  status: "running" | "done" | "error";
  summary?: string;
  delegate?: DelegateView;
}

/** A delegate as the transcript holds it, under the parent's task call: its agent, task, state and calls so far. */
export interface DelegateView {
  task_id: string;
  agent: string;
  description?: string;
  state: DelegateState;
  /** Calls made so far, all of them (`calls` keeps only the latest). */
  count: number;
  /** The latest calls, oldest first: at most MAX_DELEGATE_CALLS, so an event's work stays bounded. */
  calls: DelegateCall[];
  /** The last error its turn showed (a model failure). */
  error?: string;
}

/** How many of a delegate's calls its expanded line keeps: a long-running delegate costs no more per event. */
export const MAX_DELEGATE_CALLS = 50;

/** Whether the delegate may still change: its line stays live (not drawn once) until it ends. */
export const delegateLive = (view: DelegateView | undefined) =>
  view !== undefined && (view.state === "waiting" || view.state === "running");

/**
 * One delegate event into the delegate's view: a change of state, or one event of its own turn
 * (a call, its result, its own delegate's event one level down). Events that change nothing
 * shown (text, usage, decisions) give back the same view, so the caller can keep its list.
 */
export function applyDelegate(
  view: DelegateView | undefined,
  event: DelegateEvent,
  title: (name: string, input: unknown) => string,
): DelegateView {
  const base: DelegateView = view ?? {
    task_id: event.task_id,
    agent: event.agent,
    ...(event.description ? { description: event.description } : {}),
    state: "running",
    count: 0,
    calls: [],
  };
  if (event.state !== "event") return { ...base, task_id: event.task_id, state: event.state };
  const inner = event.event;
  if (!inner) return base;
  const calls = applyInner(base.calls, inner, title);
  if (inner.type === "error") return { ...base, error: inner.message };
  if (calls === base.calls) return base;
  const count = inner.type === "tool_call" ? base.count + 1 : base.count;
  return { ...base, count, calls: calls.length > MAX_DELEGATE_CALLS ? calls.slice(-MAX_DELEGATE_CALLS) : calls };
}

/** A delegate's own event into its calls: the same array when it changes none of them. */
function applyInner(
  calls: DelegateCall[],
  inner: RunEvent,
  title: (name: string, input: unknown) => string,
): DelegateCall[] {
  switch (inner.type) {
    case "tool_call":
      return [...calls, { id: inner.id, name: inner.name, title: title(inner.name, inner.input), status: "running" }];
    case "tool_result":
      return replaceLatest(calls, inner.id, (call) => ({
        ...call,
        status: inner.isError ? "error" : "done",
        summary: inner.summary,
        ...(call.delegate ? { delegate: settleDelegate(call.delegate, inner.isError === true, inner.summary) } : {}),
      }));
    case "delegate":
      return replaceLatest(calls, inner.call, (call) => ({
        ...call,
        delegate: applyDelegate(call.delegate, inner, title),
      }));
    default:
      return calls;
  }
}

/** The latest call of an id replaced (providers may reuse ids across steps); the same array when none has it. */
function replaceLatest(
  calls: DelegateCall[],
  id: string,
  change: (call: DelegateCall) => DelegateCall,
): DelegateCall[] {
  for (let at = calls.length - 1; at >= 0; at--) {
    const call = calls[at];
    if (call?.id !== id) continue;
    const next = [...calls];
    next[at] = change(call);
    return next;
  }
  return calls;
}

/**
 * A task call's failed result while its delegate still shows waiting or running: it ended without
 * saying so (cancelled while it waited for a slot, or it could not run). The result's summary
 * (`task build: cancelled`) names how, when it does.
 */
export function settleDelegate(view: DelegateView, isError: boolean, summary: string | undefined): DelegateView {
  if (!isError || !delegateLive(view)) return view;
  const named = /: (cancelled|failed|limit|repeat)$/.exec(summary ?? "")?.[1] as DelegateState | undefined;
  return { ...view, state: named ?? "failed" };
}

/** The call a delegate is on now: its latest still running. */
export function currentCall(view: DelegateView): DelegateCall | undefined {
  for (let at = view.calls.length - 1; at >= 0; at--) {
    const call = view.calls[at];
    if (call?.status === "running") return call;
  }
  return undefined;
}

/** The state said in words: `waiting for a slot`, `running`, `done`, `stopped at its step limit`… */
export function stateText(state: DelegateState): string {
  switch (state) {
    case "waiting":
      return "waiting for a slot";
    case "limit":
      return "stopped at its step limit";
    case "repeat":
      return "stopped for repeating a call";
    case "blocked":
      return "its prompt blocked by a hook";
    default:
      return state;
  }
}
