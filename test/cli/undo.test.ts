import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { acquireLease } from "../../src/store/lease.js";
import { SessionStore } from "../../src/store/session-store.js";
import { expectDecision } from "../support/ledger.js";
import { type Scenario, sentText, startScenario } from "../support/scenario.js";

/**
 * Undo (issue 17 item 6) through the real binary: snapshots taken before steps that may change
 * files, `bosun undo` putting files back byte for byte and leaving the undone turn out of what
 * the model is sent next, `bosun diff` showing a turn's changes, and the refusals: a file
 * changed by hand (without --force), a session another process holds.
 */

// Bytes no text tool would write: NUL, a byte that is not UTF-8, CRLF.
const ODD = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x62, 0x79, 0x65, 0x0a]);

const calls = (...list: Array<[string, Record<string, unknown>]>) => ({
  toolCalls: list.map(([name, args], i) => ({ id: `c${i}-${name}`, name, arguments: args })),
});

function bytes(s: Scenario, path: string): Buffer | undefined {
  const full = join(s.ws.dir, path);
  return existsSync(full) ? readFileSync(full) : undefined;
}

async function twoTurns(): Promise<Scenario> {
  const s = await startScenario({
    rules: [
      {
        match: { request: 1 },
        reply: calls(
          ["write", { path: "new.txt", content: "new\n" }],
          ["shell", { command: "printf 'two\\n' > a.txt && rm gone.bin && printf 'x\\n' > ignored.txt" }],
        ),
      },
      { match: { request: 2 }, reply: { text: "First done." } },
      {
        match: { request: 3 },
        reply: calls(
          ["write", { path: "b.txt", content: "bee\n" }],
          ["shell", { command: "printf 'three\\n' > a.txt" }],
        ),
      },
      { match: { request: 4 }, reply: { text: "Second done." } },
      { reply: { text: "Fine." } },
    ],
  });
  s.ws.write(".gitignore", "ignored.txt\n");
  s.ws.write("a.txt", "one\n");
  writeFileSync(join(s.ws.dir, "gone.bin"), ODD);
  const first = await s.run(["run", "--auto", "first task"]);
  assert.equal(first.code, 0, first.stderr);
  const second = await s.run(["run", "-c", "--auto", "second task"]);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(bytes(s, "a.txt")?.toString(), "three\n");
  return s;
}

describe("undo", () => {
  it("undoes the last turn, then rewinds to turn 1, byte for byte; the model is not sent the undone turn", async () => {
    const s = await twoTurns();
    try {
      const id = s.latest().id;
      const snapshots = s.latest().events.filter((e) => e.type === "files.snapshot");
      assert.deepEqual(
        snapshots.map((e) => {
          const { turn, step } = e.data as { turn: number; step: number | string };
          return `${turn}:${step}`;
        }),
        ["1:1", "1:end", "2:1", "2:end"],
        "a snapshot before each step that writes, and at each such turn's end",
      );

      const diff = await s.run(["diff", id, "--turn", "1"]);
      assert.equal(diff.code, 0, diff.stderr);
      assert.match(diff.stdout, /^-one\n\+two$/m);
      assert.match(diff.stdout, /new file mode[\s\S]*\+new/);
      assert.match(diff.stdout, /deleted file mode[\s\S]*gone\.bin/);
      assert.doesNotMatch(diff.stdout, /ignored\.txt/);

      const undone = await s.run(["undo", id]);
      assert.equal(undone.code, 0, undone.stderr);
      assert.match(undone.stdout, /undid turn 2; 2 file\(s\) put back/);
      assert.equal(bytes(s, "a.txt")?.toString(), "two\n");
      assert.equal(bytes(s, "b.txt"), undefined, "the file turn 2 created is gone");

      const next = await s.run(["run", "-c", "--auto", "third task"]);
      assert.equal(next.code, 0, next.stderr);
      const sent = sentText(s, s.server.requests.length);
      assert.match(sent, /first task/);
      assert.match(sent, /First done\./);
      assert.doesNotMatch(sent, /second task|Second done\./, "the undone turn is not in the conversation");

      // Turns 1 and 3 (2 is undone already); 3 changed no files.
      const rewound = await s.run(["undo", id, "--to", "1"]);
      assert.equal(rewound.code, 0, rewound.stderr);
      assert.match(rewound.stdout, /undid turns 1, 3/);
      assert.equal(bytes(s, "a.txt")?.toString(), "one\n");
      assert.equal(bytes(s, "new.txt"), undefined, "the file turn 1 created is gone");
      assert.deepEqual(bytes(s, "gone.bin"), ODD, "the file turn 1 deleted is back, byte for byte");
      assert.equal(bytes(s, "ignored.txt")?.toString(), "x\n", "an ignored file is not snapshotted, so it stays");

      const decisions = s.latest().decisions.filter((d) => d.seat === "session.revert");
      assert.deepEqual(
        decisions.map((d) => [d.holder, d.answer]),
        [
          ["person", "revert"],
          ["person", "revert"],
        ],
      );
      const why = await s.run(["why", id, "--seat", "session.revert"]);
      assert.match(why.stdout, /session\.revert +person +revert +turns: 1, 3/);
      const rewind = JSON.stringify(decisions[1]?.reasons);
      assert.match(rewind, /rewind asked","detail":"to turn 1/);
      assert.match(rewind, /gone\.bin \(restored\)/);
      assert.match(rewind, /new\.txt \(removed\)/);

      const nothing = await s.run(["undo", id]);
      assert.equal(nothing.code, 1);
      assert.match(nothing.stderr, /not undone: nothing to undo/);
      expectDecision(s.latest().decisions, "session.revert", "person", "refuse");
    } finally {
      await s.close();
    }
  });

  it("refuses to overwrite a file changed by hand, listing it, unless --force", async () => {
    const s = await twoTurns();
    try {
      const id = s.latest().id;
      s.ws.write("a.txt", "by hand\n");
      const refused = await s.run(["undo", id]);
      assert.equal(refused.code, 1, refused.stderr);
      assert.match(refused.stderr, /changed since bosun's last snapshot[^\n]*\n {2}a\.txt/);
      assert.equal(bytes(s, "a.txt")?.toString(), "by hand\n", "not overwritten");
      assert.equal(bytes(s, "b.txt")?.toString(), "bee\n", "nothing else put back either");
      const refusal = expectDecision(s.latest().decisions, "session.revert", "person", "refuse");
      assert.match(JSON.stringify(refusal.reasons), /changed since the snapshot/);

      const forced = await s.run(["undo", id, "--force"]);
      assert.equal(forced.code, 0, forced.stderr);
      assert.equal(bytes(s, "a.txt")?.toString(), "two\n");
      assert.equal(bytes(s, "b.txt"), undefined);
      const done = expectDecision(s.latest().decisions, "session.revert", "person", "revert");
      assert.match(JSON.stringify(done.reasons), /overwritten \(forced\)/);
    } finally {
      await s.close();
    }
  });

  it("is refused while another process holds the session's lease, recorded; bad flags are usage errors", async () => {
    const s = await twoTurns();
    try {
      const id = s.latest().id;
      const store = SessionStore.open(join(s.ws.home, "data", "bosun.db"));
      const lease = acquireLease(store, id, { heartbeatMs: 0 });
      try {
        const refused = await s.run(["undo", id]);
        assert.equal(refused.code, 2, refused.stderr);
        assert.match(refused.stderr, /is in use by bosun pid/);
        assert.equal(bytes(s, "b.txt")?.toString(), "bee\n", "nothing put back");
      } finally {
        lease.release();
        store.close();
      }
      const refusal = expectDecision(s.latest().decisions, "session.revert", "person", "refuse");
      assert.match(JSON.stringify(refusal.reasons), /the session is in use/);

      const bad = await s.run(["undo", id, "--to", "two"]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--to takes a turn number/);
      const unknown = await s.run(["undo", id, "--bogus"]);
      assert.equal(unknown.code, 2);
      const noTurn = await s.run(["diff", id, "--turn", "9"]);
      assert.equal(noTurn.code, 2);
      assert.match(noTurn.stderr, /has no turn 9/);
    } finally {
      await s.close();
    }
  });

  it("with undo.enabled false nothing is snapshotted, why is recorded once, and undo takes back the conversation only", async () => {
    const s = await startScenario(
      {
        rules: [
          { match: { request: 1 }, reply: calls(["write", { path: "one.txt", content: "1\n" }]) },
          { match: { request: 2 }, reply: calls(["write", { path: "two.txt", content: "2\n" }]) },
          { reply: { text: "Done." } },
        ],
      },
      { config: { undo: { enabled: false } } },
    );
    try {
      const run = await s.run(["run", "--auto", "write two files"]);
      assert.equal(run.code, 0, run.stderr);
      const { id, events } = s.latest();
      assert.deepEqual(
        events.filter((e) => e.type === "files.snapshot").map((e) => e.data),
        [{ skipped: "undo.enabled is false", turn: 1 }],
        "said once, not at every step",
      );
      const undone = await s.run(["undo", id]);
      assert.equal(undone.code, 0, undone.stderr);
      assert.match(
        undone.stdout,
        /undid turn 1; 0 file\(s\) put back\n {2}not put back: turn 1: undo\.enabled is false/,
      );
      assert.equal(bytes(s, "one.txt")?.toString(), "1\n", "its files stay");
      const decision = expectDecision(s.latest().decisions, "session.revert", "person", "revert");
      assert.match(JSON.stringify(decision.reasons), /files not snapshotted.*undo\.enabled is false; its files stay/);
    } finally {
      await s.close();
    }
  });

  it("a file too large to snapshot before the turn is not deleted by its undo", async () => {
    const s = await startScenario(
      {
        rules: [
          { match: { request: 1 }, reply: calls(["shell", { command: "printf 'small\\n' > big.txt" }]) },
          { reply: { text: "Done." } },
        ],
      },
      { config: { undo: { max_file_bytes: 100 } } },
    );
    try {
      s.ws.write("big.txt", "x".repeat(200));
      const run = await s.run(["run", "--auto", "shrink it"]);
      assert.equal(run.code, 0, run.stderr);
      const first = s.latest().events.find((e) => e.type === "files.snapshot");
      assert.deepEqual((first?.data as { leftOut?: string[] } | undefined)?.leftOut, ["big.txt"]);
      const undone = await s.run(["undo", s.latest().id]);
      assert.equal(undone.code, 0, undone.stderr);
      assert.equal(bytes(s, "big.txt")?.toString(), "small\n", "kept as it is, not removed");
      const decision = expectDecision(s.latest().decisions, "session.revert", "person", "revert");
      assert.match(
        JSON.stringify(decision.reasons),
        /too large to have been snapshotted, left as they are","detail":"big\.txt/,
      );
    } finally {
      await s.close();
    }
  });
});
