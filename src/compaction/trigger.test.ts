import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import type { Answer } from "../contracts/decisions.js";
import { readDecisions, recordDecision } from "../seats/record.js";
import { EV } from "../session/events.js";
import type { StoredEvent } from "../store/session-store.js";
import { SessionStore } from "../store/session-store.js";
import { CHECKPOINT_EVENT } from "./checkpoint.js";
import { estimateMessages, estimateTokens, IMAGE_TOKENS } from "./estimate.js";
import { decideCompaction, measureConversation, type TriggerInput } from "./trigger.js";

// (100_000 - 20_000) × 0.8 = 64_000
const base: TriggerInput = {
  lastInputTokens: 60_000,
  lastOutputTokens: 2_000,
  charsSince: 0,
  window: 100_000,
  reserve: 20_000,
  threshold: 0.8,
  auto: true,
  thresholdSource: "built-in",
  autoSource: "built-in",
};

const details = (answer: Answer) => answer.reasons.map((r) => `${r.rule}: ${r.detail}`).join("\n");

/** Records the answers in a real ledger and reads them back, as `bosun why` would. */
function ledger(answers: Answer[]) {
  const dir = mkdtempSync(join(tmpdir(), "bosun-trigger-"));
  const store = SessionStore.open(join(dir, "bosun.db"));
  try {
    const session = store.create({ directory: dir });
    for (const answer of answers) recordDecision(store, session.id, { seat: "compaction.trigger", ...answer });
    return readDecisions(store, session.id);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("estimateTokens", () => {
  it("is about a token per 4 characters, rounded up", () => {
    assert.equal(estimateTokens(""), 0);
    assert.equal(estimateTokens("abcd"), 1);
    assert.equal(estimateTokens("abcde"), 2);
    assert.equal(estimateTokens("x".repeat(4000)), 1000);
  });

  it("estimates messages from their text, tool inputs and outputs, and images", () => {
    const tokens = estimateMessages([
      { role: "user", content: "x".repeat(40) },
      {
        role: "assistant",
        content: [
          { type: "text", text: "y".repeat(40) },
          { type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "a" } },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "read", output: { type: "text", value: "z".repeat(80) } },
        ],
      },
      { role: "user", content: [{ type: "image", image: "AAAA", mediaType: "image/png" }] },
    ]);
    // 40 + 40 + "read" + '{"path":"a"}' (4 + 12) + 80 = 176 characters → 44, plus one image.
    assert.equal(tokens, 44 + IMAGE_TOKENS);
  });
});

describe("decideCompaction (seat compaction.trigger)", () => {
  it("compacts exactly when the estimate reaches (window - reserve) × threshold", () => {
    const below = decideCompaction({ ...base, charsSince: 7_996 }); // 60_000 + 2_000 + 1_999
    const at = decideCompaction({ ...base, charsSince: 8_000 }); // 64_000
    const above = decideCompaction({ ...base, charsSince: 8_001 }); // 64_001
    assert.equal(below.answer, "no");
    assert.equal(at.answer, "compact");
    assert.equal(above.answer, "compact");
    assert.equal(at.holder, "config");
    assert.equal(below.holder, "config");
    assert.match(details(below), /63999 < 64000/);
    assert.match(details(at), /64000 >= 64000/);
    assert.match(details(at), /64000 tokens = \(window 100000 - output reserve 20000\) × threshold 0\.8/);
    assert.match(details(at), /last measured 60000 in \+ 2000 out; ~2000 from 8000 characters since/);
    const limit = at.reasons.find((r) => r.rule === "limit");
    assert.equal(limit?.key, "compaction.threshold");
    assert.equal(limit?.source, "built-in");
    assert.equal(at.reasons.filter((r) => r.decisive).length, 1);
  });

  it("follows the threshold", () => {
    assert.equal(decideCompaction({ ...base, threshold: 0.5 }).answer, "compact"); // 62_000 >= 40_000
    assert.equal(decideCompaction({ ...base, threshold: 1 }).answer, "no"); // 62_000 < 80_000
  });

  it("estimates from characters alone when nothing was measured yet", () => {
    const { lastInputTokens: _, lastOutputTokens: __, ...unmeasured } = base;
    const answer = decideCompaction({ ...unmeasured, charsSince: 256_000 }); // 64_000
    assert.equal(answer.answer, "compact");
    assert.match(details(answer), /nothing measured yet/);
    assert.equal(decideCompaction({ ...unmeasured, charsSince: 255_996 }).answer, "no");
  });

  it("never triggers on an unknown window (code)", () => {
    const { window: _, ...input } = base;
    const answer = decideCompaction({ ...input, lastInputTokens: 10_000_000 });
    assert.equal(answer.answer, "no");
    assert.equal(answer.holder, "code");
    assert.match(details(answer), /context window unknown: .*not in the catalog or config/);
  });

  it("never compacts with compaction.auto false (config), and says an overflow is then an error", () => {
    const answer = decideCompaction({ ...base, auto: false, autoSource: "/repo/bosun.json:2", charsSince: 1_000_000 });
    assert.equal(answer.answer, "no");
    assert.equal(answer.holder, "config");
    const decisive = answer.reasons.find((r) => r.decisive);
    assert.equal(decisive?.key, "compaction.auto");
    assert.equal(decisive?.source, "/repo/bosun.json:2");
    assert.match(decisive?.detail ?? "", /false: never compacts; a request over the context window is then an error/);
  });

  it("does not compact when the output reserve leaves no room (code)", () => {
    const answer = decideCompaction({ ...base, reserve: 100_000 });
    assert.equal(answer.answer, "no");
    assert.equal(answer.holder, "code");
  });

  it("records as the ledger shows it", () => {
    const decisions = ledger([
      decideCompaction({ ...base, charsSince: 8_000 }),
      decideCompaction({ ...base, auto: false }),
      decideCompaction({ ...base, window: undefined }),
    ]);
    expectDecision(decisions, "compaction.trigger", "config", "compact");
    expectDecision(decisions, "compaction.trigger", "config", "no");
    expectDecision(decisions, "compaction.trigger", "code", "no");
  });
});

describe("measureConversation", () => {
  const events: StoredEvent[] = [];
  const add = (type: string, data: unknown) =>
    events.push({ sessionId: "S", seq: events.length + 1, type, data, at: events.length });
  const assistant = (text: string) =>
    add(EV.assistant, { text, toolCalls: [], finish: "stop", model: "p/m", step: 1, status: "complete" });

  it("counts everything in characters until a request was measured", () => {
    add(EV.user, { text: "x".repeat(100) });
    assert.deepEqual(measureConversation(events), { charsSince: 100 });
  });

  it("takes the last measured request, and counts only what came after its reply", () => {
    add("model.usage", { model: "p/m", input: 5_000, output: 40 });
    assistant("y".repeat(160)); // the measured reply: its output tokens, not its characters
    add(EV.notice, { text: "z".repeat(30) });
    add("decision", { seat: "turn.done" });
    assert.deepEqual(measureConversation(events), { lastInputTokens: 5_000, lastOutputTokens: 40, charsSince: 30 });
  });

  it("ignores a summary request's usage, and starts again after a checkpoint", () => {
    add("model.usage", { model: "p/m", input: 90_000, output: 500, for: "compaction.summary" });
    assert.equal(measureConversation(events).lastInputTokens, 5_000);
    add(CHECKPOINT_EVENT, {
      summary: "s".repeat(50),
      keptFrom: 1,
      tokensBefore: 1,
      tokensAfter: 1,
      model: "p/m",
      reason: "manual",
    });
    const after = measureConversation(events);
    assert.equal(after.lastInputTokens, undefined);
    // The summary message (prefix + 50) and the kept events: 100 + 160 + 30.
    assert.ok(after.charsSince > 50 + 100 + 160 + 30, String(after.charsSince));
  });
});
