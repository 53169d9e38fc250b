import assert from "node:assert/strict";
import { test } from "node:test";
import type { Delegate } from "../session/delegates.js";
import type { SessionInfo } from "../store/session-store.js";
import { sessionTree, type TreeRow } from "./session-tree.js";

const session = (id: string, parentId: string | null, created: number): SessionInfo => ({
  id,
  title: id,
  directory: "/r",
  parentId,
  created,
  updated: 100 - created,
});
const worker = (call: string): Delegate => ({ agent: "worker", call, depth: 1 });
const shape = (rows: TreeRow[]) =>
  rows.map((r) =>
    r.kind === "hidden" ? `${r.depth}:…${r.count}` : `${r.depth}:${r.session.id}${r.orphan ? "!" : ""}`,
  );

test("delegates go under their parent oldest first; forks and the others stay at the top in the order given", () => {
  const sessions = [
    session("F", "P", 5),
    session("C2", "P", 3),
    session("G", "C1", 4),
    session("C1", "P", 2),
    session("P", null, 1),
  ];
  const delegates = new Map([
    ["C1", worker("c1")],
    ["C2", worker("c2")],
    ["G", worker("g1")],
  ]);
  assert.deepEqual(shape(sessionTree(sessions, delegates)), ["0:F", "0:P", "1:C1", "2:G", "1:C2"]);
});

test("past the cap, the earlier delegates (and theirs) are one counted row", () => {
  const kids = [1, 2, 3, 4].map((i) => session(`C${i}`, "P", i));
  const sessions = [session("P", null, 0), ...kids, session("G", "C1", 9)];
  const delegates = new Map([...kids.map((k) => [k.id, worker(k.id)] as const), ["G", worker("g")] as const]);
  assert.deepEqual(shape(sessionTree(sessions, delegates, 2)), ["0:P", "1:…2", "1:C3", "1:C4"]);
});

test("a delegate whose parent is not listed is at the top, an orphan; parents in a circle still show, once each", () => {
  const sessions = [session("O", "gone", 1), session("A", "B", 2), session("B", "A", 3)];
  const delegates = new Map([
    ["O", worker("o")],
    ["A", worker("a")],
    ["B", worker("b")],
  ]);
  assert.deepEqual(shape(sessionTree(sessions, delegates)), ["0:O!", "0:A!", "1:B"]);
});
