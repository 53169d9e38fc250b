import type { RecordedDecision } from "../contracts/decisions.js";

/**
 * The session's log as the ledger view needs it, in log order: its decisions (each with the
 * session it was copied from, for a fork), the person's messages, the ends of turns and the
 * calls the model asked for (to name a call by its tool and main argument).
 */
export type LedgerEntry =
  | { kind: "decision"; decision: RecordedDecision; copiedFrom: string | null }
  | { kind: "message"; text: string }
  | { kind: "turn-end" }
  | { kind: "calls"; calls: ReadonlyArray<LedgerCall> };

/** A call the model asked for; `session`, the delegate session a `task` call started (or resumed). */
export interface LedgerCall {
  id: string;
  tool: string;
  input: unknown;
  session?: string;
}

export interface Shown {
  decision: RecordedDecision;
  copiedFrom: string | null;
}

/** Decisions outside any turn: a run's set-up (session, config, agent, mode, model...), or between turns. */
export interface SetUp {
  kind: "set-up";
  decisions: Shown[];
  /** The run's `session.target` answer (new, continue, resume, fork), kept when a filter drops the decision; none between turns. */
  target?: unknown;
}

export interface Turn {
  kind: "turn";
  /** Counted over the whole session, across runs. */
  number: number;
  /** The person's message that started it. */
  message: string;
  steps: Step[];
}

export interface Step {
  /** Undefined for the turn's decisions about no step. */
  step: number | undefined;
  groups: CallGroup[];
}

/** A call's decisions, or (no `call`) the step's own. */
export interface CallGroup {
  call?: { id: string; tool?: string; input?: unknown; session?: string };
  decisions: Shown[];
}

export type Section = SetUp | Turn;

/**
 * Groups the ledger by what the person sees: a turn is the person's message and what follows
 * until the turn ends (a message while a turn runs steers it and starts none — unless step 1
 * follows it, for a turn that ended without its `turn.ended`, cut off by a crash); a new run starts
 * at its `session.target`, and the decisions outside a turn are that run's set-up. Within a
 * turn, decisions go by step (`subject.step`) and by call (`subject.call`), each in the order
 * it first appears. `keep` filters decisions (a seat glob); empty sections are left out.
 */
export function groupLedger(entries: readonly LedgerEntry[], keep: (seat: string) => boolean = () => true): Section[] {
  const sections: Section[] = [];
  const calls = new Map<string, Omit<LedgerCall, "id">>();
  let turns = 0;
  let turn: Turn | undefined;
  let open = false;
  let setUp: SetUp | undefined;
  let pending: string | undefined;
  // Whether the open turn has a decision yet (kept or not by the filter).
  let decided = false;
  const startTurn = (message: string): Turn => {
    turns++;
    decided = false;
    const started: Turn = { kind: "turn", number: turns, message, steps: [] };
    sections.push(started);
    open = true;
    setUp = undefined;
    return started;
  };
  for (const entry of entries) {
    if (entry.kind === "calls") {
      for (const { id, ...call } of entry.calls) calls.set(id, call);
    } else if (entry.kind === "turn-end") {
      open = false;
    } else if (entry.kind === "message") {
      if (open && turn) {
        // A steer, unless step 1 comes next: then the turn before ended without saying so (a crash).
        pending = entry.text;
        continue;
      }
      turn = startTurn(entry.text);
    } else {
      const { decision } = entry;
      if (decision.seat === "session.target") {
        open = false;
        setUp = undefined;
      }
      if (pending !== undefined && open && decision.subject?.step === 1 && decided) {
        turn = startTurn(pending);
      }
      pending = undefined;
      const inTurn = turn && (open || (decision.subject?.step !== undefined && sections.at(-1) === turn));
      if (inTurn && turn) {
        decided = true;
        if (keep(decision.seat)) place(turn, entry, calls);
        continue;
      }
      if (!setUp) {
        setUp = { kind: "set-up", decisions: [] };
        sections.push(setUp);
      }
      if (decision.seat === "session.target") setUp.target = decision.answer;
      if (keep(decision.seat)) setUp.decisions.push({ decision, copiedFrom: entry.copiedFrom });
    }
  }
  return sections.filter((s) => (s.kind === "set-up" ? s.decisions.length > 0 : s.steps.length > 0));
}

function place(turn: Turn, entry: Shown, calls: ReadonlyMap<string, Omit<LedgerCall, "id">>): void {
  const stepNumber = entry.decision.subject?.step;
  let step = turn.steps.find((s) => s.step === stepNumber);
  if (!step) {
    step = { step: stepNumber, groups: [] };
    turn.steps.push(step);
  }
  const callId = typeof entry.decision.subject?.call === "string" ? entry.decision.subject.call : undefined;
  let group = step.groups.find((g) => g.call?.id === callId);
  if (!group) {
    group = callId ? { call: { id: callId, ...calls.get(callId) }, decisions: [] } : { decisions: [] };
    step.groups.push(group);
  }
  group.decisions.push({ decision: entry.decision, copiedFrom: entry.copiedFrom });
}

/** A section whose decisions were all copied from the fork's parent says so once, in its title. */
export function copiedWhole(section: Section): string | null {
  const all =
    section.kind === "set-up" ? section.decisions : section.steps.flatMap((s) => s.groups.flatMap((g) => g.decisions));
  const from = all[0]?.copiedFrom ?? null;
  return from && all.every((d) => d.copiedFrom === from) ? from : null;
}
