import type { Reason } from "../contracts/decisions.js";
import type { StoredEvent } from "../store/session-store.js";
import { isEvent } from "./journal.js";
import { revertedTurns, type Turn, turnsOf } from "./turns.js";

/**
 * Seat session.revert, decided in two parts: which turns an undo, redo or rewind takes
 * (`pickTurns`, from the session's events alone), then whether the files may be put back
 * (`judgeHandEdits`, once the caller has compared the work tree with bosun's last snapshot).
 * Pure: the caller reads the events and the files, and records the answer.
 */

export type RevertAction = "undo" | "redo" | "rewind";

export interface RevertAsk {
  action: RevertAction;
  /** rewind: back to before this turn (it and every later one are reverted). */
  to?: number;
  /** A turn of this session is running in this process (the TUI's). */
  running: boolean;
}

export type Picked =
  | { answer: "refuse"; reasons: Reason[] }
  | {
      answer: "revert" | "restore";
      /** The turns, in order. */
      turns: Turn[];
      reasons: Reason[];
    };

/** Which turns the person's undo, redo or rewind takes, or why none. */
export function pickTurns(events: readonly StoredEvent[], ask: RevertAsk): Picked {
  const refuse = (rule: string, detail?: string): Picked => ({
    answer: "refuse",
    reasons: [{ rule, ...(detail ? { detail } : {}), decisive: true }],
  });
  if (ask.running) return refuse("a turn is running", "wait for it to end, or cancel it (Esc), then ask again");
  const turns = turnsOf(events);
  const reverted = revertedTurns(events);
  const live = turns.filter((turn) => !reverted.has(turn.turn));
  const asked = { rule: `${ask.action} asked`, detail: ask.to !== undefined ? `to turn ${ask.to}` : undefined };
  const person: Reason = asked.detail ? asked : { rule: asked.rule };
  if (ask.action === "redo") return pickRedo(events, turns, reverted, live, person);

  let taken: Turn[];
  if (ask.action === "undo" && ask.to === undefined) {
    const last = live.at(-1);
    if (!last)
      return refuse("nothing to undo", turns.length === 0 ? "the session has no turns" : "every turn is undone");
    taken = [last];
  } else {
    const to = ask.to;
    if (to === undefined || !Number.isInteger(to) || to < 1 || to > turns.length)
      return refuse("no such turn", `turn ${to} (this session has ${turns.length})`);
    if (reverted.has(to)) return refuse("already undone", `turn ${to} is undone; /redo brings it back`);
    taken = live.filter((turn) => turn.turn >= to);
  }
  const open = taken.find((turn) => turn.end === undefined);
  if (open)
    return refuse(
      "turn did not end",
      `turn ${open.turn} has no end on record (it runs, or bosun stopped in it): which files it changed is not known`,
    );
  const crashed = taken.find((turn) => turn.before !== undefined && turn.after === undefined);
  if (crashed)
    return refuse(
      "no snapshot after the turn",
      `turn ${crashed.turn} took no snapshot at its end: its changes are not known`,
    );
  const first = taken[0] as Turn;
  const kept = latestKeptFrom(events);
  if (kept !== undefined && kept > first.start)
    return refuse(
      "compacted",
      `turn ${first.turn} is part of a compaction's summary (event ${kept}): the model would still read it`,
    );
  return {
    answer: "revert",
    turns: taken,
    reasons: [
      person,
      { rule: "turns", detail: taken.map((t) => t.turn).join(", "), decisive: true },
      ...unsnapped(taken),
    ],
  };
}

/** Redo: the turns of the latest undo still undone, unless a turn ran after them. */
function pickRedo(
  events: readonly StoredEvent[],
  turns: Turn[],
  reverted: Set<number>,
  live: Turn[],
  person: Reason,
): Picked {
  let group: number[] | undefined;
  for (let i = events.length - 1; i >= 0 && !group; i--) {
    const event = events[i] as StoredEvent;
    if (isEvent(event, "turn.reverted")) {
      const still = event.data.turns.filter((t) => reverted.has(t));
      if (still.length > 0) group = still;
    }
  }
  if (!group) return { answer: "refuse", reasons: [{ rule: "nothing to redo", decisive: true }] };
  const first = Math.min(...group);
  const later = live.find((turn) => turn.turn > first);
  if (later)
    return {
      answer: "refuse",
      reasons: [
        {
          rule: "a turn ran since",
          detail: `turn ${later.turn} ran after turn ${first} was undone: the undone turns cannot come back over it`,
          decisive: true,
        },
      ],
    };
  const taken = turns.filter((turn) => group.includes(turn.turn));
  // Compacted since the undo: the summary was written without the turn, and would stand for it.
  const kept = latestKeptFrom(events);
  const start = taken[0]?.start;
  if (kept !== undefined && start !== undefined && kept > start)
    return {
      answer: "refuse",
      reasons: [
        {
          rule: "compacted",
          detail: `the session was compacted after turn ${first} was undone (event ${kept}): its summary leaves the turn out`,
          decisive: true,
        },
      ],
    };
  return {
    answer: "restore",
    turns: taken,
    reasons: [person, { rule: "turns", detail: group.join(", "), decisive: true }, ...unsnapped(taken)],
  };
}

/** Turns whose files were not snapshotted: their conversation goes back, their files cannot. */
function unsnapped(turns: readonly Turn[]): Reason[] {
  return turns
    .filter((turn) => turn.skipped !== undefined)
    .map((turn) => ({ rule: "files not snapshotted", detail: `turn ${turn.turn}: ${turn.skipped}; its files stay` }));
}

function latestKeptFrom(events: readonly StoredEvent[]): number | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as StoredEvent;
    if (isEvent(event, "compaction.checkpoint")) return event.data.keptFrom;
  }
  return undefined;
}

/** One file's change in one turn (from its snapshots, store/snapshots.ts treeChanges). */
export interface TurnChange {
  turn: number;
  path: string;
  status: "added" | "modified" | "deleted";
}

/** A turn's snapshots: its trees, and what each left out for its size ("many": more than named). */
export interface TurnTrees {
  before: string;
  after: string;
  beforeLeftOut?: readonly string[] | "many";
  afterLeftOut?: readonly string[] | "many";
}

/**
 * Where each file goes: undo puts a file back as it was before the earliest turn that changed
 * it; redo as it was after the latest. A file the target snapshot lacks is removed — unless that
 * snapshot left it out for its size: then it existed, too large to keep, and stays as it is
 * (`kept`) rather than be deleted for a file the turn created.
 */
export function restorePlan(
  answer: "revert" | "restore",
  changes: readonly TurnChange[],
  trees: ReadonlyMap<number, TurnTrees>,
): { plan: Map<string, string>; kept: string[] } {
  const chosen = new Map<
    string,
    { turn: number; tree: string; removes: boolean; leftOut?: TurnTrees["beforeLeftOut"] }
  >();
  for (const change of changes) {
    const turn = trees.get(change.turn);
    if (!turn) continue;
    const held = chosen.get(change.path);
    const wins = !held || (answer === "revert" ? change.turn < held.turn : change.turn > held.turn);
    if (!wins) continue;
    const back = answer === "revert";
    chosen.set(change.path, {
      turn: change.turn,
      tree: back ? turn.before : turn.after,
      removes: change.status === (back ? "added" : "deleted"),
      ...((back ? turn.beforeLeftOut : turn.afterLeftOut)
        ? { leftOut: back ? turn.beforeLeftOut : turn.afterLeftOut }
        : {}),
    });
  }
  const plan = new Map<string, string>();
  const kept: string[] = [];
  for (const [path, { tree, removes, leftOut }] of chosen) {
    if (removes && leftOut !== undefined && (leftOut === "many" || leftOut.includes(path))) kept.push(path);
    else plan.set(path, tree);
  }
  return { plan, kept: kept.sort() };
}

/**
 * Files to put back that changed since bosun's last snapshot: not overwritten silently. With
 * force (--force, or the person said yes when shown them) they are; else refused, listing them.
 */
export function judgeHandEdits(
  changedSince: readonly string[],
  force: boolean,
): { answer: "go" | "refuse"; reasons: Reason[] } {
  if (changedSince.length === 0) return { answer: "go", reasons: [] };
  const detail = changedSince.join(", ");
  if (force) return { answer: "go", reasons: [{ rule: "changed since the snapshot, overwritten (forced)", detail }] };
  return {
    answer: "refuse",
    reasons: [{ rule: "changed since the snapshot", detail: `${detail} (--force overwrites them)`, decisive: true }],
  };
}
