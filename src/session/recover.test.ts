import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { expectDecision } from "../../test/support/ledger.js";
import { BosunError } from "../errors.js";
import { readDecisions } from "../seats/record.js";
import { acquireLease, type Lease } from "../store/lease.js";
import { SessionStore } from "../store/session-store.js";
import { EV } from "./events.js";
import { NEVER_STARTED, recoverInterruptedCalls } from "./recover.js";

describe("recoverInterruptedCalls (session.recover)", () => {
  let dir: string;
  let store: SessionStore;
  let session: string;
  let lease: Lease;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "bosun-recover-"));
    store = SessionStore.open(join(dir, "bosun.db"));
    session = store.create({ directory: dir }).id;
    lease = acquireLease(store, session, { heartbeatMs: 0 });
  });
  afterEach(() => {
    lease.release();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const started = (id: string, step = 1, name = "shell") =>
    store.append(session, EV.callStarted, { id, name, input: { command: "x" }, step });
  const finished = (id: string, name = "shell") =>
    store.append(session, EV.callFinished, { id, name, output: "ok", isError: false, summary: "ok" });
  const ofType = (type: string) => store.events(session, type).map((e) => e.data);

  it("does nothing to a session with no calls", () => {
    store.append(session, EV.user, { text: "hi" });
    const before = store.events(session).length;
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), []);
    assert.equal(store.events(session).length, before);
  });

  it("marks a started call with no outcome interrupted and records one decision for it (code)", () => {
    started("c1", 3);
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), ["c1"]);
    assert.deepEqual(ofType(EV.callInterrupted), [{ id: "c1", name: "shell" }]);
    const decisions = readDecisions(store, session);
    const decision = expectDecision(decisions, "session.recover", "code", "interrupted");
    assert.deepEqual(decision.subject, { step: 3, call: "c1" });
    assert.deepEqual(decision.reasons, [
      {
        rule: "started, never finished",
        detail: "shell c1 was running when bosun stopped; not run again",
        decisive: true,
      },
    ]);
    // The marker and its decision come right after the orphan, together.
    assert.deepEqual(
      store
        .events(session)
        .slice(-3)
        .map((e) => e.type),
      [EV.callStarted, EV.callInterrupted, "decision"],
    );
  });

  it("leaves finished, cancelled and already interrupted calls alone", () => {
    started("done");
    finished("done");
    started("stopped");
    store.append(session, EV.callCancelled, { id: "stopped", name: "shell" });
    started("old");
    store.append(session, EV.callInterrupted, { id: "old", name: "shell" });
    const before = store.events(session).length;
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), []);
    assert.equal(store.events(session).length, before);
    assert.deepEqual(readDecisions(store, session), []);
  });

  it("marks every orphan among settled calls, each with its own decision, in the order they started", () => {
    started("a", 1);
    finished("a");
    started("b", 2, "edit");
    started("c", 2, "write");
    finished("c", "write");
    started("d", 2);
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), ["b", "d"]);
    assert.deepEqual(ofType(EV.callInterrupted), [
      { id: "b", name: "edit" },
      { id: "d", name: "shell" },
    ]);
    const decisions = readDecisions(store, session).filter((d) => d.seat === "session.recover");
    assert.deepEqual(
      decisions.map((d) => d.subject),
      [
        { step: 2, call: "b" },
        { step: 2, call: "d" },
      ],
    );
  });

  it("adds nothing when run a second time", () => {
    started("c1");
    started("c2");
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), ["c1", "c2"]);
    const after = store.events(session).length;
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), []);
    assert.equal(store.events(session).length, after);
    assert.equal(readDecisions(store, session).length, 2);
  });

  it("ignores outcomes of calls that never started (refused or cancelled before running)", () => {
    finished("refused", "read");
    store.append(session, EV.callCancelled, { id: "early", name: "read" });
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), []);
  });

  it("finds a call left running under an id an earlier, finished call already used", () => {
    // Some providers number their call ids per response: call_0 in step 1 and again in step 2.
    started("call_0", 1);
    finished("call_0");
    started("call_0", 2);
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), ["call_0"]);
    const decision = expectDecision(readDecisions(store, session), "session.recover", "code", "interrupted");
    assert.deepEqual(decision.subject, { step: 2, call: "call_0" });
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), []);
  });

  it("gives an outcome to the latest unsettled start with its id", () => {
    // An orphan from a run that was never recovered, then a later call under the same id that finished.
    started("call_0", 1, "write");
    started("call_0", 2, "shell");
    finished("call_0");
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), ["call_0"]);
    const decision = expectDecision(readDecisions(store, session), "session.recover", "code", "interrupted");
    assert.deepEqual(decision.subject, { step: 1, call: "call_0" });
    assert.deepEqual(ofType(EV.callInterrupted), [{ id: "call_0", name: "write" }]);
  });

  it("touches only the session it is given", () => {
    const other = store.create({ directory: dir }).id;
    store.append(other, EV.callStarted, { id: "x", name: "shell", input: {}, step: 1 });
    assert.deepEqual(recoverInterruptedCalls(store, session, lease), []);
    assert.equal(store.events(other, EV.callInterrupted).length, 0);
    const otherLease = acquireLease(store, other, { heartbeatMs: 0 });
    try {
      assert.deepEqual(recoverInterruptedCalls(store, other, otherLease), ["x"]);
    } finally {
      otherLease.release();
    }
    assert.equal(store.events(session, EV.callInterrupted).length, 0);
  });

  describe("calls the model asked for that never started", () => {
    const asked = (step: number, ...calls: Array<[string, string?]>) =>
      store.append(session, EV.assistant, {
        text: "",
        toolCalls: calls.map(([id, name = "shell"]) => ({ id, name, input: { command: "touch x" } })),
        finish: "tool-calls",
        model: "p/m",
        step,
        status: "complete",
      });

    it("gives each an error result saying it never ran, and one decision (code, never started) per call", () => {
      asked(2, ["a", "read"], ["b", "edit"], ["c"]);
      started("a", 2, "read");
      finished("a", "read");
      // Killed here: b and c have no record at all.
      assert.deepEqual(recoverInterruptedCalls(store, session, lease), ["b", "c"]);
      const results = ofType(EV.callFinished).slice(1);
      assert.deepEqual(results, [
        { id: "b", name: "edit", output: NEVER_STARTED, isError: true, summary: "edit: never started" },
        { id: "c", name: "shell", output: NEVER_STARTED, isError: true, summary: "shell: never started" },
      ]);
      const decisions = readDecisions(store, session).filter((d) => d.seat === "session.recover");
      assert.deepEqual(
        decisions.map((d) => [d.holder, d.answer, d.subject]),
        [
          ["code", "never started", { step: 2, call: "b" }],
          ["code", "never started", { step: 2, call: "c" }],
        ],
      );
      const decision = expectDecision(decisions, "session.recover", "code", "never started");
      assert.deepEqual(decision.reasons, [
        {
          rule: "asked for, never started",
          detail: "edit b (step 2) has no record: bosun stopped before it started; not run",
          decisive: true,
        },
      ]);
      assert.equal(ofType(EV.callStarted).length, 1, "nothing was started by recovering");
      assert.deepEqual(recoverInterruptedCalls(store, session, lease), [], "nothing more the second time");
    });

    it("marks a started call interrupted and the unstarted ones after it never started", () => {
      asked(1, ["a"], ["b"]);
      started("a", 1);
      assert.deepEqual(recoverInterruptedCalls(store, session, lease), ["a", "b"]);
      assert.deepEqual(
        readDecisions(store, session).map((d) => [d.answer, d.subject?.call]),
        [
          ["interrupted", "a"],
          ["never started", "b"],
        ],
      );
    });

    it("leaves calls alone that were refused, and those of a turn that ended", () => {
      asked(1, ["refused", "read"]);
      finished("refused", "read");
      asked(2, ["cancelled"]);
      store.append(session, EV.callCancelled, { id: "cancelled", name: "shell" });
      // A broken response's calls, left unrun on purpose: the turn ended after it.
      asked(3, ["broken"]);
      store.append(session, EV.turnEnded, { status: "failed", steps: 3 });
      const before = store.events(session).length;
      assert.deepEqual(recoverInterruptedCalls(store, session, lease), []);
      assert.equal(store.events(session).length, before);
    });

    it("tells calls apart by message when ids repeat across steps", () => {
      asked(1, ["call_0"]);
      started("call_0", 1);
      finished("call_0");
      asked(2, ["call_0", "write"]);
      assert.deepEqual(recoverInterruptedCalls(store, session, lease), ["call_0"]);
      const decision = expectDecision(readDecisions(store, session), "session.recover", "code", "never started");
      assert.deepEqual(decision.subject, { step: 2, call: "call_0" });
      assert.equal(ofType(EV.callFinished).length, 2);
    });

    it("finds an unstarted call of an older crash whose id a later step reused and ran", () => {
      // A crash before this recovery existed; a later run used the same id and ran it.
      asked(1, ["call_0", "write"]);
      store.append(session, EV.user, { text: "again" });
      asked(1, ["call_0"]);
      started("call_0", 1);
      finished("call_0");
      store.append(session, EV.turnEnded, { status: "done", steps: 2 });
      assert.deepEqual(recoverInterruptedCalls(store, session, lease), ["call_0"]);
      assert.equal(readDecisions(store, session)[0]?.answer, "never started");
      assert.deepEqual(ofType(EV.callFinished).at(-1), {
        id: "call_0",
        name: "write",
        output: NEVER_STARTED,
        isError: true,
        summary: "write: never started",
      });
    });
  });

  describe("respects the session lease", () => {
    const refused = (error: unknown) => {
      assert.ok(error instanceof BosunError);
      assert.match(error.message, /does not hold its lease/);
      return true;
    };

    it("refuses, marking nothing, when the lease is another run's", () => {
      started("live");
      const before = store.events(session).length;
      lease.release();
      // Another live run (this very process, as far as the pid check goes) holds it now.
      const theirs = acquireLease(store, session, { heartbeatMs: 0 });
      try {
        assert.throws(() => recoverInterruptedCalls(store, session, lease), refused);
        assert.equal(store.events(session).length, before);
        assert.deepEqual(readDecisions(store, session), []);
      } finally {
        theirs.release();
      }
    });

    it("refuses when nobody holds the lease, or when it is a lease on another session", () => {
      started("c1");
      const other = store.create({ directory: dir }).id;
      const otherLease = acquireLease(store, other, { heartbeatMs: 0 });
      try {
        assert.throws(() => recoverInterruptedCalls(store, session, otherLease), refused);
      } finally {
        otherLease.release();
      }
      lease.release();
      assert.throws(() => recoverInterruptedCalls(store, session, lease), refused);
      assert.equal(store.events(session, EV.callInterrupted).length, 0);
    });

    it("names the dead holder whose lease this run replaced", async () => {
      started("c1", 2);
      lease.release();
      const dead = await exitedPid();
      store.db
        .prepare(
          "INSERT INTO session_leases (session_id, pid, host, process, token, acquired, heartbeat) VALUES (?, ?, ?, NULL, 'old', ?, ?)",
        )
        .run(session, dead, hostname(), Date.UTC(2025, 0, 2, 3, 4, 5), Date.now());
      lease = acquireLease(store, session, { heartbeatMs: 0 });
      assert.equal(lease.replaced?.pid, dead);
      assert.deepEqual(recoverInterruptedCalls(store, session, lease), ["c1"]);
      const decision = expectDecision(readDecisions(store, session), "session.recover", "code", "interrupted");
      assert.deepEqual(decision.reasons[1], {
        rule: "previous holder gone",
        detail: `bosun pid ${dead} on ${hostname()}, holder since 2025-01-02T03:04:05.000Z: not running`,
      });
    });
  });
});

/** The pid of a process that has come and gone (and been reaped). */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid as number;
}
