import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ModelMessage } from "ai";
import { expectDecision } from "../../test/support/ledger.js";
import { readDecisions, recordDecision } from "../seats/record.js";
import { SessionStore } from "../store/session-store.js";
import { pruneDecision, prunedNote, pruneToolOutputs } from "./prune.js";

const call = (id: string, tokens: number, isError = false): ModelMessage[] => [
  { role: "assistant", content: [{ type: "tool-call", toolCallId: id, toolName: "read", input: { path: id } }] },
  {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: id,
        toolName: "read",
        output: isError
          ? { type: "error-text", value: "e".repeat(tokens * 4) }
          : { type: "text", value: "o".repeat(tokens * 4) },
      },
    ],
  },
];

const conversation = (): ModelMessage[] => [
  { role: "user", content: "task one" },
  ...call("c1", 1_000),
  ...call("c2", 2_000, true),
  ...call("c3", 3),
  { role: "assistant", content: "done" },
  { role: "user", content: "task two" },
  ...call("c4", 5_000),
  { role: "user", content: "[bosun] 3 steps left" },
];

function outputOf(messages: ModelMessage[], id: string): { type: string; value: unknown } {
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result" && part.toolCallId === id) return part.output as { type: string; value: unknown };
    }
  }
  throw new Error(`no result ${id}`);
}

describe("pruneToolOutputs (seat context.prune)", () => {
  it("replaces the oldest outputs before the person's newest message until they fit, never the newest exchange", () => {
    const input = conversation();
    const snapshot = structuredClone(input);
    const { messages, pruned } = pruneToolOutputs(input, 1_500);
    assert.deepEqual(pruned, [
      { toolCallId: "c1", toolName: "read", tokens: 1_000 },
      { toolCallId: "c2", toolName: "read", tokens: 2_000 },
    ]);
    assert.deepEqual(outputOf(messages, "c1"), { type: "text", value: prunedNote("read", "c1", 1_000) });
    assert.equal(
      prunedNote("read", "c1", 1_000),
      "[output of read c1 pruned: ~1000 tokens; the session store keeps it]",
    );
    // An error stays an error.
    assert.deepEqual(outputOf(messages, "c2"), { type: "error-text", value: prunedNote("read", "c2", 2_000) });
    // An output shorter than its note is left; the newest exchange's (after "task two") is never touched,
    // and bosun's own "[bosun]" note after it does not make it old.
    assert.equal(outputOf(messages, "c3").value, "o".repeat(12));
    assert.equal(outputOf(messages, "c4").value, "o".repeat(20_000));
    assert.equal(messages.length, input.length);
    // What was passed in is not changed.
    assert.deepEqual(input, snapshot);
  });

  it("stops as soon as the rest fits", () => {
    const { messages, pruned } = pruneToolOutputs(conversation(), 2_500);
    assert.deepEqual(
      pruned.map((p) => p.toolCallId),
      ["c1"],
    );
    assert.equal(outputOf(messages, "c2").value, "e".repeat(8_000));
  });

  it("prunes nothing within the budget, or when there is no earlier exchange", () => {
    assert.deepEqual(pruneToolOutputs(conversation(), 3_100).pruned, []);
    const single: ModelMessage[] = [{ role: "user", content: "only" }, ...call("c1", 50_000)];
    assert.deepEqual(pruneToolOutputs(single, 0).pruned, []);
    const noPerson: ModelMessage[] = [{ role: "user", content: "[bosun] Summary ..." }, ...call("c1", 50_000)];
    assert.deepEqual(pruneToolOutputs(noPerson, 0).pruned, []);
  });

  it("records a config decision naming the pruned calls", () => {
    const { pruned } = pruneToolOutputs(conversation(), 1_500);
    const decision = pruneDecision(pruned, 1_500, "/home/u/.config/bosun/bosun.json:4");
    assert.deepEqual(decision.answer, { pruned: 2, tokens: 3_000 });
    const reason = decision.reasons.find((r) => r.decisive);
    assert.equal(reason?.key, "compaction.prune_tokens");
    assert.equal(reason?.source, "/home/u/.config/bosun/bosun.json:4");
    assert.match(
      reason?.detail ?? "",
      /budget 1500 tokens; sent as a note, oldest first: read c1 ~1000, read c2 ~2000/,
    );

    const dir = mkdtempSync(join(tmpdir(), "bosun-prune-"));
    const store = SessionStore.open(join(dir, "bosun.db"));
    try {
      const session = store.create({ directory: dir });
      recordDecision(store, session.id, decision);
      expectDecision(readDecisions(store, session.id), "context.prune", "config", { pruned: 2, tokens: 3_000 });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
