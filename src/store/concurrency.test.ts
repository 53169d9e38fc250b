import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { SessionStore } from "./session-store.js";

/**
 * Two real writer processes on one database file: SQLite's locking, not anything in this
 * process, is what keeps the log whole. See test/support/append-worker.ts.
 */
const WORKER = fileURLToPath(new URL("../../test/support/append-worker.ts", import.meta.url));
const PER_WORKER = 400;
const CREATE_EVERY = 50;
const TAGS = ["alpha", "beta"] as const;

const root = mkdtempSync(join(tmpdir(), "bosun-concurrency-test-"));
after(() => rmSync(root, { recursive: true, force: true }));

interface WorkerReport {
  tag: string;
  seqs: number[];
  created: string[];
  started: number;
  finished: number;
}

interface Worker {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function startWorker(args: string[]): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    if (stdout.startsWith("ready\n")) markReady();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      markReady();
      resolve({ code, stdout, stderr });
    });
  });
  return { child, ready, done };
}

test("two writer processes appending to one session at once lose nothing and never collide", async (t) => {
  const path = join(root, "bosun.db");
  const setup = SessionStore.open(path);
  const session = setup.create({ directory: "/repo", title: "shared" });
  setup.append(session.id, "note", { before: 1 });
  setup.append(session.id, "note", { before: 2 });
  setup.close();
  const initial = 3;

  const workers = TAGS.map((tag) => startWorker([path, session.id, String(PER_WORKER), tag, String(CREATE_EVERY)]));
  await Promise.all(workers.map((w) => w.ready));

  // A reader in this process, polling while they write: WAL means it is never blocked and
  // every snapshot it sees is a whole prefix of the log, never one with a hole in it.
  const reader = SessionStore.open(path);
  const snapshots: number[] = [];
  const holes: string[] = [];
  const poll = setInterval(() => {
    const seqs = reader.events(session.id).map((e) => e.seq);
    if (seqs.some((seq, i) => seq !== i + 1)) holes.push(seqs.join(","));
    snapshots.push(seqs.length);
  }, 2);

  for (const w of workers) w.child.stdin.end("go\n");
  const results = await Promise.all(workers.map((w) => w.done));
  clearInterval(poll);
  reader.close();

  for (const result of results) assert.equal(result.code, 0, `worker failed:\n${result.stderr}`);
  assert.deepEqual(holes, [], "a reader saw a log with a gap");
  assert.ok(snapshots.length > 0);
  assert.ok(
    snapshots.every((n, i) => i === 0 || n >= (snapshots[i - 1] ?? 0)),
    "a reader saw the log shrink",
  );
  const reports = results.map((r) => JSON.parse(r.stdout.split("\n")[1] ?? "") as WorkerReport);

  const store = SessionStore.open(path);
  try {
    const events = store.events(session.id);
    const total = initial + PER_WORKER * TAGS.length;

    // Nothing lost, nothing doubled: seqs are exactly 1..n.
    assert.equal(events.length, total);
    assert.deepEqual(
      events.map((e) => e.seq),
      Array.from({ length: total }, (_, i) => i + 1),
    );
    assert.deepEqual(
      events.slice(0, initial).map((e) => e.type),
      ["session.created", "note", "note"],
    );

    for (const report of reports) {
      const mine = events.filter((e) => (e.data as { tag?: string } | null)?.tag === report.tag);
      // Each worker's events are all there, in the order it appended them...
      assert.deepEqual(
        mine.map((e) => (e.data as { i: number }).i),
        Array.from({ length: PER_WORKER }, (_, i) => i),
        `${report.tag}'s events out of order or missing`,
      );
      assert.ok(mine.every((e) => e.type === "worker.tick"));
      // ...at exactly the seqs append() told it.
      assert.deepEqual(
        mine.map((e) => e.seq),
        report.seqs,
      );
    }
    // The two workers' seqs partition the appended range.
    const allSeqs = reports.flatMap((r) => r.seqs).sort((a, b) => a - b);
    assert.deepEqual(
      allSeqs,
      Array.from({ length: PER_WORKER * TAGS.length }, (_, i) => initial + i + 1),
    );

    // Times follow the log: a later seq never has an earlier time, and the projection's
    // `updated` is the last event's time.
    for (let i = 1; i < events.length; i++) {
      const [prev, cur] = [events[i - 1], events[i]];
      assert.ok((prev?.at ?? 0) <= (cur?.at ?? 0), `event ${cur?.seq} is dated before event ${prev?.seq}`);
    }
    assert.equal(store.get(session.id)?.updated, events.at(-1)?.at);

    // The sessions they created while appending are all there, each with its created event.
    const created = reports.flatMap((r) => r.created);
    assert.equal(created.length, (PER_WORKER / CREATE_EVERY) * TAGS.length);
    assert.equal(new Set(created).size, created.length);
    assert.equal(store.list().length, 1 + created.length);
    for (const report of reports) {
      assert.deepEqual(
        store.list(`/worker/${report.tag}`).map((s) => s.title),
        report.created.map((_, n) => `${report.tag}-${n}`).reverse(),
      );
    }
    for (const id of created) {
      assert.deepEqual(
        store.events(id).map((e) => [e.seq, e.type]),
        [[1, "session.created"]],
      );
    }

    assert.equal(store.db.pragma("integrity_check", { simple: true }), "ok");
    assert.deepEqual(store.db.pragma("foreign_key_check"), []);

    const switches = events.slice(initial).filter((e, i, all) => {
      const prev = all[i - 1];
      return prev && (prev.data as { tag: string }).tag !== (e.data as { tag: string }).tag;
    }).length;
    t.diagnostic(`writer switches in the log: ${switches}; reader snapshots: ${snapshots.length}`);
  } finally {
    store.close();
  }
});
