import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StoredEvent } from "../store/session-store.js";
import { lastRecordedTree, revertedTurns, turnsOf, withoutReverted } from "./turns.js";

const T1 = "1".repeat(40);
const T2 = "2".repeat(40);
const T3 = "3".repeat(40);

/** A session's log from [type, data] pairs, seq 1..n. */
function log(...entries: Array<[string, unknown]>): StoredEvent[] {
  return entries.map(([type, data], i) => ({ sessionId: "S", seq: i + 1, type, data, at: i }));
}

const turn = (text: string, before?: string, after?: string, n = 1): Array<[string, unknown]> => [
  ["message.notice", { text: "env", kind: "environment" }],
  ["message.user", { text }],
  ...(before ? ([["files.snapshot", { tree: before, turn: n, step: 1 }]] as Array<[string, unknown]>) : []),
  [
    "message.assistant",
    { text: `re ${text}`, toolCalls: [], finish: "stop", model: "p/m", step: 1, status: "complete" },
  ],
  ...(after ? ([["files.snapshot", { tree: after, turn: n, step: "end" }]] as Array<[string, unknown]>) : []),
  ["turn.ended", { status: "done", steps: 1 }],
];

describe("turns", () => {
  it("a turn opens at a message outside a turn (with its environment notice) and closes at turn.ended", () => {
    const events = log(
      ...turn("one", T1, T2, 1),
      ["message.user", { text: "steer" }],
      ...turn("two", undefined, undefined, 2).slice(1),
    );
    const turns = turnsOf(events);
    assert.deepEqual(
      turns.map((t) => [t.turn, t.start, t.end, t.text, t.before, t.after]),
      [
        [1, 1, 6, "one", T1, T2],
        [2, 7, 10, "steer", undefined, undefined],
      ],
    );
  });

  it("a message inside a running turn steers it; a blocked turn (no message) is no turn", () => {
    const events = log(
      ["turn.ended", { status: "blocked", steps: 0 }],
      ["message.user", { text: "go" }],
      ["message.user", { text: "and also" }],
      ["turn.ended", { status: "done", steps: 1 }],
    );
    assert.deepEqual(
      turnsOf(events).map((t) => [t.turn, t.text]),
      [[1, "go"]],
    );
  });

  it("reverted turns leave the conversation, not the other records; a restore brings them back", () => {
    const events = log(...turn("one", T1, T2, 1), ...turn("two", T2, T3, 2), [
      "turn.reverted",
      { turns: [2], tree: T2 },
    ]);
    const kept = withoutReverted(events);
    assert.ok(kept.some((e) => e.type === "message.user" && (e.data as { text: string }).text === "one"));
    assert.ok(!kept.some((e) => e.type === "message.user" && (e.data as { text: string }).text === "two"));
    assert.ok(kept.some((e) => e.type === "files.snapshot" && (e.data as { turn: number }).turn === 2));
    const measured = log(...turn("one"), ...turn("two", undefined, undefined, 2), ["turn.reverted", { turns: [2] }]);
    measured.splice(6, 0, { sessionId: "S", seq: 6.5, type: "model.usage", data: { input: 900 }, at: 0 });
    assert.ok(
      !withoutReverted(measured).some((e) => e.type === "model.usage"),
      "an undone turn's measured tokens go with it",
    );
    assert.deepEqual([...revertedTurns(events)], [2]);
    const restored = [...events, ...log(["turn.restored", { turns: [2] }]).map((e) => ({ ...e, seq: 99 }))];
    assert.equal(withoutReverted(restored).length, restored.length);
    assert.equal(revertedTurns(restored).size, 0);
  });

  it("the last recorded tree: a snapshot's, or the tree an undo left", () => {
    const events = log(...turn("one", T1, T2, 1));
    assert.equal(lastRecordedTree(events), T2);
    assert.equal(lastRecordedTree([...events, ...log(["turn.reverted", { turns: [1], tree: T3 }])]), T3);
    assert.equal(lastRecordedTree(log(["message.user", { text: "x" }])), undefined);
  });

  it("a skipped snapshot marks its turn and later ones, until one is taken", () => {
    const events = log(
      ["message.user", { text: "a" }],
      ["files.snapshot", { skipped: "not in a git repository", turn: 1 }],
      ["turn.ended", { status: "done", steps: 1 }],
      ["message.user", { text: "b" }],
      ["turn.ended", { status: "done", steps: 1 }],
    );
    assert.deepEqual(
      turnsOf(events).map((t) => t.skipped),
      ["not in a git repository", "not in a git repository"],
    );
  });
});
