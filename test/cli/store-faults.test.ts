import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import type BetterSqlite3 from "better-sqlite3";
import { makeReadOnly } from "../support/read-only.js";
import { type Scenario, startScenario } from "../support/scenario.js";
import { mountSmallDisk } from "../support/small-disk.js";
import type { RunResult } from "../support/workspace.js";

/**
 * The session database under faults, through the real binary: a garbage or truncated bosun.db, a
 * read-only BOSUN_HOME, a full disk before and in the middle of a run. Each is one clear error
 * naming the file and what to do (exit 1), never a stack; reading commands work on a read-only
 * home; a run the disk filled up stays a valid session that resumes. Run `npm run build` first.
 */

const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
const done = { rules: [{ reply: { text: "All done." } }] };
const dbOf = (s: Scenario) => join(s.ws.home, "data", "bosun.db");

/** Asserts a store failure: exit 1, one `bosun: ` line naming `file` and matching `what`, no stack. */
function storeFailure(result: RunResult, file: string, what: RegExp): void {
  assert.equal(result.code, 1, `expected exit 1, got ${result.code}:\n${result.stderr}`);
  // One error line (a run prints its progress before it).
  const errors = result.stderr.split("\n").filter((line) => line.startsWith("bosun: "));
  assert.equal(errors.length, 1, result.stderr);
  assert.ok(result.stderr.includes(file), `the error names ${file}:\n${result.stderr}`);
  assert.match(result.stderr, what);
  assert.doesNotMatch(result.stderr, /internal error|\n\s+at |SqliteError/);
}

async function ok(s: Scenario, args: string[]): Promise<string> {
  const result = await s.run(args);
  assert.equal(result.code, 0, `bosun ${args.join(" ")} exited ${result.code}:\n${result.stderr}`);
  return result.stdout;
}

test("a garbage bosun.db: every command says which file and to move it aside, exit 1", async () => {
  const s = await startScenario(done);
  try {
    mkdirSync(join(s.ws.home, "data"), { recursive: true });
    writeFileSync(dbOf(s), "this is not a database, only some text long enough to look like one\n".repeat(100));
    for (const args of [
      ["sessions"],
      ["run", "hello"],
      ["why", "x"],
      ["sessions", "new"],
      ["sessions", "export", "x"],
    ]) {
      storeFailure(
        await s.run(args),
        dbOf(s),
        /is not a readable bosun database \(file is not a database\); move it aside \(mv .*bosun\.db .*bosun\.db\.broken\)/,
      );
    }
    // The advice works: moved aside, bosun starts a new one.
    rmSync(dbOf(s));
    assert.match(await ok(s, ["run", "hello"]), /All done\./);
  } finally {
    await s.close();
  }
});

test("a truncated bosun.db is named as broken, not a stack", async () => {
  const s = await startScenario(done);
  try {
    for (let i = 0; i < 6; i++) await ok(s, ["run", `task ${i} ${"x".repeat(3000)}`]);
    const size = statSync(dbOf(s)).size;
    assert.ok(size > 8 * 4096, `the database has pages to lose (${size} bytes)`);
    truncateSync(dbOf(s), 4096);
    storeFailure(
      await s.run(["sessions", "--all"]),
      dbOf(s),
      /is not a readable bosun database \(database disk image is malformed\)/,
    );
    storeFailure(await s.run(["run", "again"]), dbOf(s), /move it aside/);
  } finally {
    await s.close();
  }
});

test("a database another process keeps locked past the 15 s wait: named as busy, exit 1", async () => {
  const s = await startScenario(done);
  try {
    await ok(s, ["run", "hello"]);
    // Another process holding the write lock, as a stuck bosun would.
    const holder = new Sqlite(dbOf(s));
    holder.exec("BEGIN IMMEDIATE");
    try {
      const started = Date.now();
      const result = await s.run(["sessions", "new"]);
      storeFailure(
        result,
        dbOf(s),
        /stayed locked by another bosun process past the 15 s wait \(SQLITE_BUSY\); try again when it has finished/,
      );
      assert.ok(Date.now() - started >= 15_000, "it waited the whole bound first");
      // Reading is not blocked by a writer (WAL).
      assert.equal(JSON.parse(await ok(s, ["sessions", "--json"])).length, 1);
    } finally {
      holder.close();
    }
  } finally {
    await s.close();
  }
});

test("a read-only BOSUN_HOME: reading commands work, writing ones say the folder is read-only", async (t) => {
  const s = await startScenario(done);
  try {
    await ok(s, ["run", "hello"]);
    const { id } = s.latest();
    const shownBefore = await ok(s, ["sessions", "show", id]);
    const whyBefore = await ok(s, ["why", id]);
    const locked = makeReadOnly(s.ws.home);
    if ("unavailable" in locked) {
      console.log(`skipped: ${locked.unavailable}`);
      t.skip(locked.unavailable);
      return;
    }
    try {
      // No -wal or -shm is left after a clean exit, and none can be made here: still readable.
      const listed = JSON.parse(await ok(s, ["sessions", "--json"])) as Array<{ id: string }>;
      assert.deepEqual(
        listed.map((l) => l.id),
        [id],
      );
      assert.equal(await ok(s, ["sessions", "show", id]), shownBefore);
      assert.equal(await ok(s, ["why", id]), whyBefore);
      const exported = JSON.parse(await ok(s, ["sessions", "export", id])) as { session: { id: string }; events: [] };
      assert.equal(exported.session.id, id);
      assert.equal(exported.events.length, s.latest().events.length);
      // Doctor reads the database (read-only) and says the folder cannot be written.
      const doctor = await s.run(["doctor"]);
      assert.equal(doctor.code, 1);
      assert.match(
        doctor.stdout,
        /^data folder: problem: .*\/data cannot be written \((EROFS|EACCES)\) — fix: make .* writable/m,
      );
      assert.match(doctor.stdout, /^database: ok \(.*integrity ok, schema \d+, 1 sessions\)$/m);
      for (const args of [
        ["run", "again"],
        ["sessions", "new"],
        ["sessions", "delete", id],
      ]) {
        storeFailure(
          await s.run(args),
          dbOf(s),
          /is read-only or not yours \(SQLITE_[A-Z_]+\); make it writable, or point BOSUN_HOME at a folder you can write/,
        );
      }
    } finally {
      locked.restore();
    }
    // Nothing was written meanwhile: the session is as it was.
    assert.equal(await ok(s, ["why", id]), whyBefore);
  } finally {
    await s.close();
  }
});

test("a full disk before a run: the ENOSPC error, clear, and the home still works once freed", async (t) => {
  const disk = mountSmallDisk(2 * 1024 * 1024);
  if ("unavailable" in disk) {
    console.log(`skipped: ${disk.unavailable}`);
    t.skip(disk.unavailable);
    return;
  }
  const s = await startScenario(done);
  try {
    const home = join(disk.path, "home");
    mkdirSync(home);
    writeFileSync(join(home, "bosun.json"), readFileSync(join(s.ws.home, "bosun.json")));
    const env = { BOSUN_HOME: home };
    const filler = join(disk.path, "filler");
    fill(filler);
    const full = await s.run(["run", "hello"], { env });
    assert.equal(full.code, 1, full.stderr);
    assert.match(full.stderr, /^bosun: (cannot write )?\/.*the disk is full/m);
    assert.match(full.stderr, /ENOSPC|SQLITE_FULL/);
    assert.doesNotMatch(full.stderr, /internal error|\n\s+at /);
    // --format json reports it as its error event and a done line with the exit code.
    const json = await s.run(["run", "--format", "json", "hello"], { env });
    assert.equal(json.code, 1, json.stderr);
    const events = s.events(json);
    assert.match(String(events.find((e) => e.type === "error")?.message), /the disk is full/);
    const last = events.at(-1);
    assert.deepEqual([last?.type, last?.status, last?.exitCode], ["done", "error", 1]);
    rmSync(filler);
    const ran = await s.run(["run", "hello"], { env });
    assert.equal(ran.code, 0, ran.stderr);
  } finally {
    await s.close();
    disk.unmount();
  }
});

test("a disk that fills up mid-run: the disk-full error is shown, the session stays valid and resumes", async (t) => {
  const disk = mountSmallDisk(3 * 1024 * 1024);
  if ("unavailable" in disk) {
    console.log(`skipped: ${disk.unavailable}`);
    t.skip(disk.unavailable);
    return;
  }
  // The model's own command fills the disk holding the workspace and BOSUN_HOME (both on the
  // tmpfs), so the next record bosun writes — the call's result — finds no room.
  const s = await onDisk(disk.path, () =>
    startScenario({
      rules: [
        {
          match: { request: 1 },
          reply: {
            toolCalls: [{ id: "c1", name: "shell", arguments: { command: "head -c 8000000 /dev/zero > big.bin" } }],
          },
        },
        { reply: { text: "Carried on." } },
      ],
    }),
  );
  try {
    const full = await s.run(["run", "--auto", "fill the disk"]);
    storeFailure(full, dbOf(s), /the disk is full \(SQLITE_FULL\); nothing already recorded is lost — free some space/);
    // The error is the disk's alone (storeFailure: one error line), not one from giving the lease up afterwards.
    const doctor = await s.run(["doctor"]);
    assert.equal(doctor.code, 1);
    assert.match(doctor.stdout, /^data folder: problem: .*: the disk is full \(ENOSPC\) — fix: free some space/m);
    assert.match(doctor.stdout, /^database: ok \(.*integrity ok/m);
    rmSync(join(s.ws.dir, "big.bin"));

    const { id, events } = s.latest();
    assert.ok(events.some((e) => e.type === "call.started"));
    assert.match(await ok(s, ["why", id]), /call\.permission/);
    assert.match(await ok(s, ["sessions", "show", id]), new RegExp(`id +${id}`));
    const before = events.length;

    const resumed = await s.run(["run", "-c", "carry on"]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /Carried on\./);
    const after = s.latest();
    assert.equal(after.id, id);
    // Nothing lost: every event from before is still there, in order; the call the disk cut off
    // is settled by the resume, and every event that followed is whole.
    assert.deepEqual(after.events.slice(0, before), events);
    const interrupted = after.events.filter((e) => e.type === "call.interrupted");
    assert.equal(interrupted.length, 1);
    assert.deepEqual(
      interrupted.map((e) => (e.data as { id: string }).id),
      ["c1"],
    );
    assert.equal(s.server.requests.length, 2);
  } finally {
    await s.close();
    disk.unmount();
  }
});

/** Creates the scenario's temp folders (workspace and home) on `root`. */
async function onDisk<T>(root: string, create: () => Promise<T>): Promise<T> {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  try {
    return await create();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

/** Writes `file` until the disk has no room left. */
function fill(file: string): void {
  try {
    writeFileSync(file, Buffer.alloc(64 * 1024 * 1024));
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, "ENOSPC");
    return;
  }
  assert.fail("the small disk had room for 64 MiB");
}
