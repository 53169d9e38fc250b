import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CHECKPOINT_EVENT } from "../compaction/checkpoint.js";
import { EV } from "../session/events.js";
import { EventTail } from "../store/event-tail.js";
import { SessionStore } from "../store/session-store.js";
import { checkingJournal, driftFromJournal } from "./journal-check.js";

describe("the log in memory against the journal", () => {
  const dir = mkdtempSync(join(tmpdir(), "bosun-tail-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const store = SessionStore.open(join(dir, "bosun.db"));
  after(() => store.close());

  /** One step as the loop records it: the reply with a call, the call, its result, a decision between. */
  const step = (sessionId: string, n: number) => {
    store.append(sessionId, "usage", { input: 10 * n, output: 1 });
    store.append(sessionId, EV.assistant, {
      text: "",
      toolCalls: [{ id: `c${n}`, name: "read", input: { path: `f${n}` } }],
      finish: "tool-calls",
      model: "m/x",
      step: n,
      status: "complete",
    });
    store.append(sessionId, "decision", { seat: "call.permission", answer: "allow" });
    store.append(
      sessionId,
      EV.callStarted,
      { id: `c${n}`, name: "read", input: { path: `f${n}` }, step: n },
      { durable: true },
    );
    store.append(sessionId, EV.callFinished, {
      id: `c${n}`,
      name: "read",
      output: `body ${n}`,
      isError: false,
      summary: "",
    });
  };

  it("follows a session step by step, through a checkpoint, a resume and a fork, equal to a fresh read each time", () => {
    const session = store.create({ directory: dir });
    const tail = new EventTail((seq) => store.eventsSince(session.id, seq));
    store.append(session.id, EV.user, { text: "go" });
    const ungroup = store.groupCommits();
    for (let n = 1; n <= 6; n++) {
      step(session.id, n);
      if (n === 3) {
        const keptFrom = store.latestSeq(session.id, EV.assistant) ?? 0;
        store.append(session.id, CHECKPOINT_EVENT, {
          summary: "## Goal\nread",
          keptFrom,
          tokensBefore: 1,
          tokensAfter: 1,
          model: "m/x",
          reason: "threshold",
        });
      }
      assert.equal(driftFromJournal(tail.events(), store.events(session.id)), undefined, `after step ${n}`);
    }
    ungroup();
    // A resumed session: a new tail over the log so far, then more steps.
    const resumed = new EventTail((seq) => store.eventsSince(session.id, seq));
    for (let n = 7; n <= 8; n++) {
      step(session.id, n);
      assert.equal(driftFromJournal(resumed.events(), store.events(session.id)), undefined, `resumed, step ${n}`);
    }
    // A fork: the copies, then a step of its own.
    const fork = store.create({ directory: dir, parentId: session.id });
    store.appendCopies(fork.id, store.events(session.id).slice(1));
    const forked = new EventTail((seq) => store.eventsSince(fork.id, seq));
    assert.equal(driftFromJournal(forked.events(), store.events(fork.id)), undefined, "the fork as copied");
    step(fork.id, 9);
    assert.equal(driftFromJournal(forked.events(), store.events(fork.id)), undefined, "the fork's own step");
  });

  it("names the difference when the log in memory was changed or fell behind", () => {
    const session = store.create({ directory: dir });
    store.append(session.id, EV.user, { text: "go" });
    step(session.id, 1);
    const tail = new EventTail((seq) => store.eventsSince(session.id, seq));
    const kept = tail.events();
    const changed = structuredClone([...kept]);
    const assistant = changed[3]?.data as { toolCalls: Array<{ input: { path: string } }> };
    const first = assistant.toolCalls[0];
    assert.ok(first);
    first.input.path = "other";
    assert.match(driftFromJournal(changed, store.events(session.id)) ?? "", /event seq 4 differs/);
    step(session.id, 2);
    assert.match(
      driftFromJournal(kept.slice(0, 3), store.events(session.id)) ?? "",
      /3 events in memory, \d+ in the journal/,
    );
    assert.equal(checkingJournal({ BOSUN_CHECK_JOURNAL: "1" }), true);
    assert.equal(checkingJournal({}), false);
  });

  it("group commits: appends stop waiting for the disk until the group ends; a durable append syncs", () => {
    const session = store.create({ directory: dir });
    const synchronous = () => store.db.pragma("synchronous", { simple: true });
    assert.equal(synchronous(), 2);
    const ungroup = store.groupCommits();
    assert.equal(synchronous(), 1);
    store.append(session.id, EV.user, { text: "a" }, { durable: true });
    assert.equal(synchronous(), 1);
    ungroup();
    ungroup();
    assert.equal(synchronous(), 2);
    assert.deepEqual(
      store.events(session.id).map((e) => e.type),
      ["session.created", EV.user],
    );
  });
});
