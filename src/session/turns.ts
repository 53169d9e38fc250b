import type { StoredEvent } from "../store/session-store.js";
import { EV, type EventMap } from "./events.js";
import { isEvent } from "./journal.js";
import { USAGE_EVENT } from "./usage.js";

/**
 * The session's turns as undo sees them, projected from its events: where each turn's
 * conversation starts and ends, its snapshots of the work tree, and which turns are reverted.
 * One projection, read by the loop (to number a turn's snapshots), by the conversation the
 * model is sent (reverted turns left out) and by undo itself, so the three agree.
 */

export type FilesSnapshot = EventMap["files.snapshot"];

export interface Turn {
  /** 1-based, in order. */
  turn: number;
  /** The first event of the turn's conversation (its environment notice, else its message). */
  start: number;
  /** The seq of its turn.ended; undefined while it runs (or when bosun died in it). */
  end?: number;
  /** The person's message that started it. */
  text: string;
  /** Its snapshots' trees: before its first step that could change files, and at its end. */
  before?: string;
  after?: string;
  /** What those two snapshots left out for its size ("many": more than they name). */
  beforeLeftOut?: readonly string[] | "many";
  afterLeftOut?: readonly string[] | "many";
  /** Why no snapshot was taken, when one was skipped in it. */
  skipped?: string;
}

/**
 * What is left out of a reverted turn: its conversation, and its requests' measured tokens (the
 * compaction trigger would otherwise count the undone turn as still in the window).
 */
const CONVERSATION: ReadonlySet<string> = new Set([...Object.values(EV), USAGE_EVENT]);

/**
 * The turns: a turn opens at a person's message outside any turn (a message inside one steers
 * it) and closes at the next turn.ended. A turn a prompt hook blocked has no message and is
 * none; one bosun died in stays open, and the next message counts as part of it.
 */
export function turnsOf(events: readonly StoredEvent[]): Turn[] {
  const turns: Turn[] = [];
  let open: Turn | undefined;
  let previous: StoredEvent | undefined;
  // Why snapshots are off, once a run records it: every later turn is as unsnapshotted, until one is taken.
  let skipping: string | undefined;
  for (const event of events) {
    if (isEvent(event, EV.user) && !open) {
      // The environment notice a turn starts with is recorded with its message, just before it.
      const env =
        previous && isEvent(previous, EV.notice) && previous.data.kind === "environment" ? previous.seq : undefined;
      open = {
        turn: turns.length + 1,
        start: env ?? event.seq,
        text: event.data.text,
        ...(skipping ? { skipped: skipping } : {}),
      };
      turns.push(open);
    } else if (isEvent(event, EV.turnEnded) && open) {
      open.end = event.seq;
      open = undefined;
    } else if (isEvent(event, "files.snapshot")) {
      const turn = turns[event.data.turn - 1];
      if ("tree" in event.data) {
        skipping = undefined;
        if (turn) delete turn.skipped;
        const leftOut = event.data.leftOutMore ? "many" : event.data.leftOut;
        if (turn && event.data.step === "end") {
          turn.after = event.data.tree;
          if (leftOut) turn.afterLeftOut = leftOut;
        } else if (turn && turn.before === undefined) {
          turn.before = event.data.tree;
          if (leftOut) turn.beforeLeftOut = leftOut;
        }
      } else {
        skipping = event.data.skipped;
        if (turn) turn.skipped = skipping;
      }
    }
    previous = event;
  }
  return turns;
}

/** Which turns are reverted now: each turn.reverted and turn.restored applied in order. */
export function revertedTurns(events: readonly StoredEvent[]): Set<number> {
  const reverted = new Set<number>();
  for (const event of events) {
    if (isEvent(event, "turn.reverted")) for (const t of event.data.turns) reverted.add(t);
    else if (isEvent(event, "turn.restored")) for (const t of event.data.turns) reverted.delete(t);
  }
  return reverted;
}

/**
 * The events the model's conversation is made from: a reverted turn's conversation is left out
 * (its decisions and other records stay: they are history, not conversation). Without any
 * revert, the events as they are.
 */
export function withoutReverted(events: readonly StoredEvent[]): StoredEvent[] {
  if (!events.some((event) => event.type === "turn.reverted")) return [...events];
  return dropReverted(events, revertedRanges(events));
}

/** The types turns and their reverts are told from: enough to find the reverted turns without a whole log. */
export const TURN_SKELETON = [EV.user, EV.turnEnded, EV.notice, "turn.reverted", "turn.restored"] as const;

/**
 * The seq ranges of the turns reverted now, from the events of a session (its whole log, or
 * just its TURN_SKELETON events in order — a window of later events can then be filtered).
 */
export function revertedRanges(events: readonly StoredEvent[]): ReadonlyArray<readonly [number, number]> {
  const reverted = revertedTurns(events);
  if (reverted.size === 0) return [];
  return turnsOf(events)
    .filter((turn) => reverted.has(turn.turn))
    .map((turn) => [turn.start, turn.end ?? Number.POSITIVE_INFINITY] as const);
}

/** The events without the conversation of turns in `ranges` (their decisions and other records stay). */
export function dropReverted(
  events: readonly StoredEvent[],
  ranges: ReadonlyArray<readonly [number, number]>,
): StoredEvent[] {
  if (ranges.length === 0) return [...events];
  return events.filter(
    (event) => !CONVERSATION.has(event.type) || !ranges.some(([start, end]) => event.seq >= start && event.seq <= end),
  );
}

/**
 * The work tree as bosun last recorded it: the latest snapshot, or the tree an undo or redo left.
 * A file whose content now differs from it was changed since — by hand, or by something bosun
 * did not see — and is not overwritten without asking.
 */
export function lastRecordedTree(events: readonly StoredEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as StoredEvent;
    if (isEvent(event, "files.snapshot") && "tree" in event.data) return event.data.tree;
    if ((isEvent(event, "turn.reverted") || isEvent(event, "turn.restored")) && event.data.tree) return event.data.tree;
  }
  return undefined;
}
