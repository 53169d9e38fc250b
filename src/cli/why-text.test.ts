import assert from "node:assert/strict";
import { test } from "node:test";
import type { LedgerEntry } from "../seats/ledger-group.js";
import type { SessionInfo } from "../store/session-store.js";
import { linkDelegates } from "./why-text.js";

const child = (id: string, call: string) => ({
  session: { id, title: "", directory: "/r", parentId: "P", created: 0, updated: 0 } satisfies SessionInfo,
  delegate: { agent: "worker", call, depth: 1 },
});
const task = (id: string, input: unknown = { agent: "worker", prompt: "go" }) => ({ id, tool: "task", input });
const linked = (entries: LedgerEntry[]) =>
  entries.flatMap((e) => (e.kind === "calls" ? e.calls.map((c) => `${c.id}:${c.session ?? "-"}`) : []));

test("each task call names the delegate it started, in order, or the one its task_id resumed", () => {
  const entries: LedgerEntry[] = [
    { kind: "calls", calls: [task("c1"), { id: "c2", tool: "shell", input: { command: "ls" } }] },
    { kind: "calls", calls: [task("c1"), task("c9", { agent: "worker", prompt: "more", task_id: "A" })] },
    { kind: "calls", calls: [task("c7")] },
  ];
  // Two delegates of the same call id (a scripted model's): the first call started the first.
  assert.deepEqual(linked(linkDelegates(entries, [child("A", "c1"), child("B", "c1")])), [
    "c1:A",
    "c2:-",
    "c1:B",
    "c9:A",
    "c7:-",
  ]);
  assert.equal(linkDelegates(entries, []), entries);
});
