import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ModelToolCall } from "../contracts/tool-calls.js";
import { projectConversation } from "../session/conversation.js";
import { EV } from "../session/events.js";
import type { StoredEvent } from "../store/session-store.js";
import { applyCheckpoint, CHECKPOINT_EVENT, type CompactionCheckpoint, SUMMARY_PREFIX } from "./checkpoint.js";
import { chooseKept, eventTokens } from "./keep.js";

/** A session log, appended the way a run appends it. Each text of `n` × 4 characters is `n` tokens. */
function log() {
  const events: StoredEvent[] = [];
  const add = (type: string, data: unknown) => {
    events.push({ sessionId: "S", seq: events.length + 1, type, data, at: 1_700_000_000_000 + events.length });
    return api;
  };
  const text = (tokens: number, char = "x") => char.repeat(tokens * 4);
  const api = {
    events,
    created: () => add("session.created", { title: "", directory: "/w", parent: null }),
    user: (tokens: number, word = "u") => add(EV.user, { text: `${word}${text(tokens).slice(word.length)}` }),
    assistant: (tokens: number, toolCalls: ModelToolCall[] = []) =>
      add(EV.assistant, {
        text: text(tokens, "a"),
        toolCalls,
        finish: "stop",
        model: "p/m",
        step: 1,
        status: "complete",
      }),
    call: (id: string, outputTokens: number) => {
      add(EV.assistant, {
        text: "",
        toolCalls: [{ id, name: "read", input: {} }],
        finish: "tool-calls",
        model: "p/m",
        step: 1,
        status: "complete",
      });
      add(EV.callStarted, { id, name: "read", input: {}, step: 1 });
      return add(EV.callFinished, { id, name: "read", output: text(outputTokens, "o"), isError: false, summary: "s" });
    },
    decision: () => add("decision", { seat: "turn.done", holder: "model", answer: "done", reasons: [] }),
    checkpoint: (data: Partial<CompactionCheckpoint> & { keptFrom: number }) =>
      add(CHECKPOINT_EVENT, {
        summary: "## Goal\ng",
        tokensBefore: 1,
        tokensAfter: 1,
        model: "p/m",
        reason: "manual",
        ...data,
      }),
    seqOf: (predicate: (e: StoredEvent) => boolean) => events.filter(predicate).map((e) => e.seq),
  };
  return api;
}

const users = (events: StoredEvent[]) => events.filter((e) => e.type === EV.user).map((e) => e.seq);

describe("chooseKept", () => {
  it("keeps the newest whole exchanges that fit, and cuts only at a person's message", () => {
    const l = log().created();
    l.user(100).call("c1", 5_000).assistant(100).decision(); // exchange 1: ~5_200
    l.user(100).call("c2", 3_000).assistant(100).decision(); // exchange 2: ~3_200
    l.user(100).call("c3", 1_000).assistant(100).decision(); // exchange 3: ~1_200
    const [, second, third] = users(l.events);
    assert.equal(chooseKept(l.events, 1_500), third);
    assert.equal(chooseKept(l.events, 4_500), second);
    // Everything would fit: the first exchange is still summarised, so the cut is at the second.
    assert.equal(chooseKept(l.events, 1_000_000), second);
    // A budget that ends inside an exchange keeps that exchange out: the cut never splits it.
    assert.equal(chooseKept(l.events, 3_000), third);
    // Every cut lands on a user message.
    for (const keep of [0, 100, 1_200, 1_300, 4_400, 4_500, 9_000]) {
      const cut = chooseKept(l.events, keep);
      const at = l.events.find((e) => e.seq === cut);
      assert.ok(at === undefined || at.type === EV.user, `keep ${keep}: cut at ${at?.type}`);
    }
  });

  it("keeps nothing verbatim when not even the newest exchange fits, or when it is the only one", () => {
    const l = log().created().user(10).call("c1", 50_000).assistant(10);
    const last = l.events.at(-1)?.seq as number;
    assert.equal(chooseKept(l.events, 20_000), last + 1);
    const small = log().created().user(10).assistant(10);
    assert.equal(chooseKept(small.events, 20_000), 3 + 1);
    const two = log().created().user(10).assistant(10).user(10).call("c1", 50_000);
    assert.equal(chooseKept(two.events, 20_000), (two.events.at(-1)?.seq as number) + 1);
  });

  it("keeps bosun's notes right before a person's message with it (they frame it)", () => {
    const l = log().created();
    const notice = (text: string) => {
      l.events.push({ sessionId: "S", seq: l.events.length + 1, type: EV.notice, data: { text }, at: 0 });
    };
    notice("Environment: /w"); // 2: frames the first message, which is never a cut
    l.user(10).assistant(10); // 3, 4
    notice("Environment: /w2"); // 5
    l.decision(); // 6
    l.user(10).assistant(10); // 7, 8
    assert.equal(chooseKept(l.events, 1_000), 5);
    // Only the first exchange, with its framing note: nothing before it to summarise, so nothing is kept.
    assert.equal(chooseKept(l.events.slice(0, 4), 1_000), 5);
  });

  it("is undefined when there is no message to summarise", () => {
    assert.equal(chooseKept([], 20_000), undefined);
    assert.equal(chooseKept(log().created().decision().events, 20_000), undefined);
  });

  it("after a checkpoint, cuts only in what is still verbatim, and never where only the old summary would go", () => {
    const l = log().created();
    l.user(10).assistant(10); // 2, 3: summarised by the checkpoint
    l.user(10).assistant(10); // 4, 5: kept verbatim
    l.checkpoint({ keptFrom: 4 }); // 6
    l.user(10).assistant(10); // 7, 8
    assert.equal(chooseKept(l.events, 1_000_000), 7);
    // The kept part alone is one exchange and another: a budget for one keeps the newest.
    assert.equal(chooseKept(l.events, 25), 7);
    // A checkpoint that kept nothing and nothing since: nothing to compact.
    const bare = log().created().user(10).assistant(10);
    bare.checkpoint({ keptFrom: 4 });
    assert.equal(chooseKept(bare.events, 20_000), undefined);
  });

  it("counts what the model reads of each event", () => {
    const l = log().user(10).call("c1", 30).decision();
    assert.deepEqual(
      l.events.map((e) => eventTokens(e)),
      [10, 2, 0, 30, 0], // the call's assistant message: "read{}", 6 characters
    );
  });
});

describe("applyCheckpoint", () => {
  it("returns the events unchanged when there is no checkpoint", () => {
    const l = log().created().user(1).assistant(1);
    assert.deepEqual(applyCheckpoint(l.events), l.events);
  });

  it("puts the summary first, then the events from keptFrom on (later ones too); the latest checkpoint wins", () => {
    const l = log().created();
    l.user(1, "first").assistant(1); // 2, 3
    l.user(1, "second").assistant(1); // 4, 5
    l.checkpoint({ keptFrom: 4, summary: "## Goal\nold" }); // 6
    l.user(1, "third").assistant(1); // 7, 8
    const view = applyCheckpoint(l.events);
    assert.equal(view[0]?.type, EV.user);
    assert.deepEqual(view[0]?.data, { text: `${SUMMARY_PREFIX}## Goal\nold` });
    assert.equal(view[0]?.seq, 6);
    assert.deepEqual(
      view.slice(1).map((e) => e.seq),
      [4, 5, 6, 7, 8],
    );
    const messages = projectConversation(view);
    assert.deepEqual(
      messages.map((m) => (typeof m.content === "string" ? m.content.slice(0, 6) : m.role)),
      ["[bosun", "second", "assistant", "third", "assistant"],
    );

    l.checkpoint({ keptFrom: 7, summary: "## Goal\nnew" }); // 9
    const again = applyCheckpoint(l.events);
    assert.deepEqual(again[0]?.data, { text: `${SUMMARY_PREFIX}## Goal\nnew` });
    assert.deepEqual(
      again.slice(1).map((e) => e.seq),
      [7, 8, 9],
    );
    // The store's events are untouched.
    assert.equal(l.events.length, 9);
  });

  it("ignores a malformed checkpoint event", () => {
    const l = log().created().user(1).assistant(1);
    l.events.push({ sessionId: "S", seq: 4, type: CHECKPOINT_EVENT, data: { summary: 3 }, at: 0 });
    assert.deepEqual(applyCheckpoint(l.events), l.events);
  });
});
