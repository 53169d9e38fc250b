import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StoredEvent } from "../store/session-store.js";
import { judgeHandEdits, pickTurns, restorePlan } from "./revert.js";

function log(...entries: Array<[string, unknown]>): StoredEvent[] {
  return entries.map(([type, data], i) => ({ sessionId: "S", seq: i + 1, type, data, at: i }));
}

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);

const ended = ["turn.ended", { status: "done", steps: 1 }] as [string, unknown];
const user = (text: string) => ["message.user", { text }] as [string, unknown];
const shot = (tree: string, turn: number, step: number | "end") =>
  ["files.snapshot", { tree, turn, step }] as [string, unknown];

/** Two turns that changed files: A → B, then B → C. */
const twoTurns = () =>
  log(user("one"), shot(A, 1, 1), shot(B, 1, "end"), ended, user("two"), shot(B, 2, 1), shot(C, 2, "end"), ended);
const ask = { running: false } as const;

describe("seat session.revert: which turns", () => {
  it("undo takes the last live turn; rewind takes it and every later live one", () => {
    const undo = pickTurns(twoTurns(), { ...ask, action: "undo" });
    assert.equal(undo.answer, "revert");
    assert.deepEqual(undo.answer === "revert" && undo.turns.map((t) => t.turn), [2]);
    const rewind = pickTurns(twoTurns(), { ...ask, action: "rewind", to: 1 });
    assert.deepEqual(rewind.answer === "revert" && rewind.turns.map((t) => t.turn), [1, 2]);
    const after = [...twoTurns(), ...log(["turn.reverted", { turns: [2] }]).map((e) => ({ ...e, seq: 50 }))];
    const next = pickTurns(after, { ...ask, action: "undo" });
    assert.deepEqual(next.answer === "revert" && next.turns.map((t) => t.turn), [1]);
  });

  it("refuses while a turn runs, with nothing to undo, for no such turn, and for a compacted turn", () => {
    const rule = (picked: ReturnType<typeof pickTurns>) => picked.reasons.find((r) => r.decisive)?.rule;
    assert.equal(rule(pickTurns(twoTurns(), { running: true, action: "undo" })), "a turn is running");
    assert.equal(rule(pickTurns(log(), { ...ask, action: "undo" })), "nothing to undo");
    assert.equal(rule(pickTurns(twoTurns(), { ...ask, action: "rewind", to: 3 })), "no such turn");
    const compacted = [
      ...twoTurns(),
      ...log([
        "compaction.checkpoint",
        { summary: "s", keptFrom: 5, tokensBefore: 1, tokensAfter: 1, model: "p/m", reason: "manual" },
      ]).map((e) => ({ ...e, seq: 60 })),
    ];
    assert.equal(rule(pickTurns(compacted, { ...ask, action: "rewind", to: 1 })), "compacted");
    assert.equal(pickTurns(compacted, { ...ask, action: "undo" }).answer, "revert", "turn 2 is kept verbatim");
    const open = log(user("one"), shot(A, 1, 1));
    assert.equal(rule(pickTurns(open, { ...ask, action: "undo" })), "turn did not end");
  });

  it("redo takes the latest undo's turns back, unless a turn ran since", () => {
    const undone = [...twoTurns(), ...log(["turn.reverted", { turns: [2], tree: B }]).map((e) => ({ ...e, seq: 50 }))];
    const redo = pickTurns(undone, { ...ask, action: "redo" });
    assert.equal(redo.answer, "restore");
    assert.deepEqual(redo.answer === "restore" && redo.turns.map((t) => t.turn), [2]);
    const ranSince = [...undone, ...log(user("three"), ended).map((e, i) => ({ ...e, seq: 51 + i }))];
    assert.equal(pickTurns(ranSince, { ...ask, action: "redo" }).reasons[0]?.rule, "a turn ran since");
    assert.equal(pickTurns(twoTurns(), { ...ask, action: "redo" }).reasons[0]?.rule, "nothing to redo");
    const compactedSince = [
      ...undone,
      ...log([
        "compaction.checkpoint",
        { summary: "s", keptFrom: 51, tokensBefore: 1, tokensAfter: 1, model: "p/m", reason: "manual" },
      ]).map((e) => ({ ...e, seq: 52 })),
    ];
    assert.equal(pickTurns(compactedSince, { ...ask, action: "redo" }).reasons[0]?.rule, "compacted");
  });
});

describe("seat session.revert: the files", () => {
  const trees = new Map([
    [1, { before: A, after: B }],
    [2, { before: B, after: C }],
  ]);
  const changes = [
    { turn: 1, path: "x", status: "modified" },
    { turn: 2, path: "x", status: "modified" },
    { turn: 2, path: "y", status: "added" },
  ] as const;
  it("undo puts a file back as before the earliest turn that changed it; redo as after the latest", () => {
    assert.deepEqual(
      [...restorePlan("revert", changes, trees).plan],
      [
        ["x", A],
        ["y", B],
      ],
    );
    assert.deepEqual(
      [...restorePlan("restore", changes, trees).plan],
      [
        ["x", C],
        ["y", C],
      ],
    );
  });

  it("a file the target snapshot left out for its size is kept, not removed as if the turn created it", () => {
    const big = new Map([[2, { before: B, after: C, beforeLeftOut: ["y"] }]]);
    const undone = restorePlan("revert", [{ turn: 2, path: "y", status: "added" }], big);
    assert.deepEqual([...undone.plan], []);
    assert.deepEqual(undone.kept, ["y"]);
    const many = new Map([[2, { before: B, after: C, beforeLeftOut: "many" as const }]]);
    assert.deepEqual(restorePlan("revert", [{ turn: 2, path: "z", status: "added" }], many).kept, ["z"]);
    const other = restorePlan("revert", [{ turn: 2, path: "z", status: "added" }], big);
    assert.deepEqual([...other.plan], [["z", B]], "a file the turn created is removed");
  });

  it("a file changed since the last snapshot is refused, listed, unless forced", () => {
    assert.equal(judgeHandEdits([], false).answer, "go");
    const refused = judgeHandEdits(["a.txt"], false);
    assert.equal(refused.answer, "refuse");
    assert.match(refused.reasons[0]?.detail ?? "", /a\.txt \(--force overwrites them\)/);
    assert.equal(judgeHandEdits(["a.txt"], true).answer, "go");
  });
});
