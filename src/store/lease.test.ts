import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, beforeEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type BetterSqlite3 from "better-sqlite3";
import { UsageError } from "../errors.js";
import { acquireLease, holdsLease, type Lease, type LeaseRow, leaseHolder } from "./lease.js";
import { MIGRATIONS } from "./migrations.js";
import { SessionStore } from "./session-store.js";

const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
const onLinux = existsSync("/proc/self/stat");

const root = mkdtempSync(join(tmpdir(), "bosun-lease-test-"));
after(() => rmSync(root, { recursive: true, force: true }));
const freshPath = () => join(mkdtempSync(join(root, "case-")), "bosun.db");

type Row = LeaseRow;

/** The pid of a process that has come and gone (and been reaped). */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid as number;
}

/** A live process that is not this one; killed after the test. */
function liveChild(): ChildProcess & { pid: number } {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  children.push(child);
  return child as ChildProcess & { pid: number };
}
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

function inUse(sessionId: string, pid: number, where = "") {
  return (error: unknown) => {
    assert.ok(error instanceof UsageError, `a UsageError, not ${error}`);
    assert.equal(error.exitCode, 2);
    assert.match(
      error.message,
      new RegExp(
        `^session ${sessionId} is in use by bosun pid ${pid}${where} \\(since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\); wait for it to finish or stop it`,
      ),
    );
    return true;
  };
}

describe("session leases", () => {
  let store: SessionStore;
  let session: string;
  const leases: Lease[] = [];
  const take = (options: Parameters<typeof acquireLease>[2] = {}) => {
    const lease = acquireLease(store, session, { heartbeatMs: 0, ...options });
    leases.push(lease);
    return lease;
  };
  const row = () =>
    store.db.prepare("SELECT * FROM session_leases WHERE session_id = ?").get(session) as Row | undefined;
  /** Writes a lease as another run would have, replacing any. */
  const plant = (fields: Partial<Row>) => {
    const full: Row = {
      session_id: session,
      pid: process.pid,
      host: hostname(),
      process: null,
      token: "theirs",
      acquired: Date.now(),
      heartbeat: Date.now(),
      ...fields,
    };
    store.db
      .prepare(
        `INSERT OR REPLACE INTO session_leases (session_id, pid, host, process, token, acquired, heartbeat)
         VALUES (@session_id, @pid, @host, @process, @token, @acquired, @heartbeat)`,
      )
      .run(full);
  };

  beforeEach(() => {
    store = SessionStore.open(freshPath());
    session = store.create({ directory: "/repo" }).id;
  });
  afterEach(() => {
    for (const lease of leases.splice(0)) lease.release();
    store.close();
  });

  it("is acquired for this process and released", () => {
    assert.equal(leaseHolder(store, session), undefined);
    const lease = take({ now: () => 1_000 });
    assert.equal(lease.sessionId, session);
    assert.equal(lease.replaced, undefined);
    const held = row();
    assert.equal(held?.pid, process.pid);
    assert.equal(held?.host, hostname());
    assert.equal(held?.token, lease.token);
    assert.equal(held?.acquired, 1_000);
    assert.equal(held?.heartbeat, 1_000);
    assert.equal(held?.process === null, !onLinux, "the process mark is recorded where it can be read");
    assert.ok(holdsLease(store, session, lease.token));
    assert.deepEqual(leaseHolder(store, session), {
      pid: process.pid,
      host: hostname(),
      acquired: 1_000,
      heartbeat: 1_000,
      alive: true,
      verdict: "running",
    });

    lease.release();
    assert.equal(row(), undefined);
    assert.equal(leaseHolder(store, session), undefined);
    assert.ok(!holdsLease(store, session, lease.token));
    lease.release(); // idempotent
    const again = take();
    assert.notEqual(again.token, lease.token);
  });

  it("is refused, exit 2 naming the holder's pid, while the holder runs; the holder's lease is untouched", () => {
    const first = take();
    assert.throws(() => take(), inUse(session, process.pid));
    assert.equal(row()?.token, first.token);

    const other = liveChild();
    first.release();
    const theirs = take({ pid: other.pid });
    assert.throws(() => take(), inUse(session, other.pid));
    assert.throws(() => take(), /or stop it \(kill \d+\)$/);
    assert.equal(row()?.token, theirs.token);
  });

  it("is taken over from a holder that has exited, and says whose it was", async () => {
    const dead = await exitedPid();
    // Same host: the heartbeat (long stale here) does not matter, the pid does.
    plant({ pid: dead, acquired: 5, heartbeat: 6 });
    assert.equal(leaseHolder(store, session)?.alive, false);
    const lease = take();
    assert.deepEqual(lease.replaced, {
      pid: dead,
      host: hostname(),
      acquired: 5,
      heartbeat: 6,
      alive: false,
      verdict: "not running",
    });
    assert.equal(row()?.pid, process.pid);
    assert.equal(row()?.token, lease.token);
  });

  it("is taken over at once when the holder is killed (SIGKILL leaves its row behind)", async () => {
    const other = liveChild();
    take({ pid: other.pid });
    assert.throws(() => take(), inUse(session, other.pid));
    const exited = new Promise((resolve) => other.on("exit", resolve));
    other.kill("SIGKILL");
    await exited;
    const lease = take();
    assert.equal(lease.replaced?.pid, other.pid);
  });

  it("treats a zombie holder as dead", { skip: !onLinux && "needs /proc" }, async () => {
    // `sleep 0` ends at once, but its parent (the shell, exec'd into `sleep 30`) never reaps it.
    const parent = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
    children.push(parent);
    const zombie = await new Promise<number>((resolve) =>
      parent.stdout?.setEncoding("utf8").once("data", (text: string) => resolve(Number(text.trim()))),
    );
    const state = () => readFileSync(`/proc/${zombie}/stat`, "utf8").split(") ")[1]?.[0];
    for (let i = 0; i < 100 && state() !== "Z"; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(state(), "Z");
    plant({ pid: zombie });
    assert.equal(take().replaced?.verdict, "exited");
  });

  it("treats a holder whose pid now names another process as dead", { skip: !onLinux && "needs /proc" }, () => {
    const other = liveChild();
    const theirs = take({ pid: other.pid });
    const mark = JSON.parse(row()?.process as string) as { scope: string; start: string };
    // The same pid, started at another time: the old holder is gone and the pid was reused.
    plant({ pid: other.pid, token: theirs.token, process: JSON.stringify({ ...mark, start: "1" }) });
    const lease = take();
    assert.equal(lease.replaced?.verdict, "exited; its pid now belongs to another process");
  });

  it("judges a holder on another host by its heartbeat: alive within staleMs, dead after", async () => {
    const dead = await exitedPid(); // its pid means nothing here; only the heartbeat counts
    plant({ pid: dead, host: "elsewhere", acquired: 1_000, heartbeat: 50_000 });
    const at = (now: number) => ({ now: () => now, staleMs: 30_000 });
    assert.throws(() => take(at(79_999)), inUse(session, dead, " on elsewhere"));
    assert.equal(leaseHolder(store, session, at(79_999))?.alive, true);
    assert.equal(leaseHolder(store, session, at(80_000))?.alive, false);
    const lease = take(at(80_000));
    assert.equal(lease.replaced?.host, "elsewhere");
    assert.equal(lease.replaced?.verdict, "another host; last heartbeat 30 s ago (stale after 30 s)");
  });

  it("judges a holder with this host name but another boot or pid namespace by its heartbeat", {
    skip: !onLinux && "needs /proc",
  }, async () => {
    const dead = await exitedPid();
    const process_ = JSON.stringify({ scope: "another-boot pid:[1]", start: "7" });
    plant({ pid: dead, process: process_, heartbeat: 50_000 });
    assert.throws(() => take({ now: () => 60_000 }), inUse(session, dead));
    const lease = take({ now: () => 90_000 });
    assert.match(lease.replaced?.verdict ?? "", /^another pid namespace or boot; last heartbeat 40 s ago/);
  });

  it("heartbeats: the timer refreshes the row, and a lost lease is reported once and stops the timer", async () => {
    let clock = 1_000;
    let lost = 0;
    const lease = take({ now: () => clock, heartbeatMs: 10, onLost: () => lost++ });
    clock = 2_000;
    await waitUntil(() => row()?.heartbeat === 2_000);
    assert.equal(lease.heartbeat(), true);
    // Another run found it stale and took it.
    plant({ token: "usurper" });
    await waitUntil(() => lost > 0);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(lost, 1);
    assert.equal(lease.heartbeat(), false);
    assert.equal(row()?.token, "usurper");
    assert.equal(row()?.heartbeat === 2_000, false, "the lost lease never writes the new holder's heartbeat");
  });

  it("release never throws: a lease it cannot delete (a full disk) stays, and the next run replaces it once this one is gone", async () => {
    const lease = take();
    // A delete that fails as one on a full disk would: the run's own error must stay the one shown.
    store.db.exec(
      "CREATE TEMP TRIGGER no_room BEFORE DELETE ON main.session_leases BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
    );
    assert.throws(() => store.db.prepare("DELETE FROM session_leases").run(), /database or disk is full/);
    assert.doesNotThrow(() => lease.release());
    assert.equal(row()?.token, lease.token);
    store.db.exec("DROP TRIGGER temp.no_room");
    // Left naming this process: once the pid is dead the lease is replaced, and says whose it was.
    const dead = await exitedPid();
    store.db.prepare("UPDATE session_leases SET pid = ?, process = NULL").run(dead);
    const next = take();
    assert.equal(next.replaced?.pid, dead);
    assert.equal(next.replaced?.alive, false);
  });

  it("release with a token that is no longer the holder's removes nothing", () => {
    const lease = take();
    plant({ token: "next-holder", pid: 4242 });
    lease.release();
    assert.equal(row()?.token, "next-holder");
    assert.ok(!holdsLease(store, session, lease.token));
  });

  it("goes with its session when the session is deleted", () => {
    const lease = take();
    assert.ok(store.delete(session));
    assert.equal(
      (store.db.prepare("SELECT COUNT(*) AS n FROM session_leases").get() as { n: number }).n,
      0,
      "ON DELETE CASCADE",
    );
    assert.equal(lease.heartbeat(), false);
    lease.release(); // nothing to release, no error
  });

  it("refuses an unknown session with a usage error", () => {
    assert.throws(
      () => acquireLease(store, "01NOPE", { heartbeatMs: 0 }),
      (error: unknown) => error instanceof UsageError && /no session 01NOPE/.test(error.message),
    );
  });

  it("taken inside a caller's transaction: refused, it undoes what the caller wrote; rolled back, it never existed", () => {
    const first = take();
    assert.throws(() =>
      store.atomically(() => {
        store.append(session, "decision", { seat: "session.target" });
        take();
      }),
    );
    assert.deepEqual(
      store.events(session).map((e) => e.type),
      ["session.created"],
      "the refused run left no trace in the holder's log",
    );
    first.release();

    let inner: Lease | undefined;
    assert.throws(() =>
      store.atomically(() => {
        inner = take();
        throw new Error("model unusable");
      }),
    );
    assert.equal(row(), undefined);
    assert.equal(inner?.heartbeat(), false);
  });

  it("leases of different sessions are independent", () => {
    const other = store.create({ directory: "/repo" }).id;
    const a = take();
    const b = acquireLease(store, other, { heartbeatMs: 0 });
    leases.push(b);
    a.release();
    assert.ok(holdsLease(store, other, b.token));
  });
});

describe("session leases: the schema", () => {
  it("migration 2 adds session_leases to a version-1 database and keeps its data", () => {
    const path = freshPath();
    const raw = new Sqlite(path);
    raw.exec(MIGRATIONS[0] as string);
    raw.pragma("user_version = 1");
    raw
      .prepare("INSERT INTO sessions (id, title, directory, created, updated) VALUES ('OLD', 'kept', '/d', 1, 2)")
      .run();
    raw
      .prepare("INSERT INTO events (session_id, seq, type, data, at) VALUES ('OLD', 1, 'session.created', '{}', 1)")
      .run();
    raw.close();

    const store = SessionStore.open(path);
    try {
      assert.equal(store.db.pragma("user_version", { simple: true }), MIGRATIONS.length);
      assert.equal(store.get("OLD")?.title, "kept");
      assert.deepEqual(
        store.events("OLD").map((e) => [e.seq, e.type]),
        [[1, "session.created"]],
      );
      const lease = acquireLease(store, "OLD", { heartbeatMs: 0 });
      assert.ok(holdsLease(store, "OLD", lease.token));
      assert.ok(store.delete("OLD"));
      assert.equal(leaseHolder(store, "OLD"), undefined);
    } finally {
      store.close();
    }
  });
});

describe("session leases: processes racing", () => {
  const WORKER = join(root, "lease-worker.ts");
  const LEASE = fileURLToPath(new URL("./lease.ts", import.meta.url));
  const STORE = fileURLToPath(new URL("./session-store.ts", import.meta.url));

  it("of several processes acquiring at once, exactly one wins; the rest are told who holds it", async () => {
    writeFileSync(
      WORKER,
      `import { acquireLease } from ${JSON.stringify(LEASE)};
import { SessionStore } from ${JSON.stringify(STORE)};
const [path, session] = process.argv.slice(2);
const store = SessionStore.open(path);
process.stdout.write("ready\\n");
process.stdin.once("data", () => {
  try {
    acquireLease(store, session, { heartbeatMs: 0 });
    process.stdout.write("won\\n");
  } catch (error) {
    process.stdout.write(\`refused \${error.exitCode} \${error.message}\\n\`);
  }
  // Hold on (alive) until told to go.
  process.stdin.once("end", () => store.close()).resume();
});
`,
    );
    const path = freshPath();
    const setup = SessionStore.open(path);
    const session = setup.create({ directory: "/repo" }).id;
    setup.close();

    const workers = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", WORKER, path, session], { stdio: "pipe" });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (c: string) => {
        out += c;
      });
      return { child, output: () => out, pid: child.pid as number };
    });
    try {
      await waitUntil(() => workers.every((w) => w.output().startsWith("ready\n")), 20_000);
      for (const w of workers) w.child.stdin.write("go\n");
      await waitUntil(() => workers.every((w) => w.output().split("\n").length > 2), 20_000);
      const answers = workers.map((w) => w.output().split("\n")[1] as string);
      const winners = workers.filter((_, i) => answers[i] === "won");
      assert.equal(winners.length, 1, answers.join("\n"));
      const winner = winners[0]?.pid;
      for (const answer of answers.filter((a) => a !== "won")) {
        assert.match(answer, new RegExp(`^refused 2 session ${session} is in use by bosun pid ${winner} `));
      }
    } finally {
      for (const w of workers) w.child.stdin.end();
      await Promise.all(
        workers.map((w) => new Promise((r) => (w.child.exitCode !== null ? r(0) : w.child.on("exit", r)))),
      );
    }
    // The winner never released: its row stays, but its holder is gone.
    const check = SessionStore.open(path);
    try {
      assert.equal(leaseHolder(check, session)?.alive, false);
    } finally {
      check.close();
    }
  });
});

async function waitUntil(check: () => boolean, ms = 5_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`waited ${ms} ms in vain`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
