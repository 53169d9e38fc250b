import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type BetterSqlite3 from "better-sqlite3";
import { makeReadOnly } from "../../test/support/read-only.js";
import { BosunError } from "../errors.js";
import { databasePath, openDatabase } from "./database.js";
import { StoreError } from "./failure.js";
import { MIGRATIONS } from "./migrations.js";
import { SessionStore } from "./session-store.js";

const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
const WORKER = fileURLToPath(new URL("../../test/support/append-worker.ts", import.meta.url));

const root = mkdtempSync(join(tmpdir(), "bosun-db-test-"));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
/** A path to a database that does not exist yet, in a folder that does not exist yet either. */
const freshPath = () => join(root, `case-${++counter}`, "data", "bosun.db");

function tables(db: BetterSqlite3.Database): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
  ).map((r) => r.name);
}

describe("databasePath", () => {
  test("lives under $BOSUN_HOME/data when BOSUN_HOME is set", () => {
    assert.equal(databasePath({ BOSUN_HOME: "/h" }), join("/h", "data", "bosun.db"));
  });

  test("falls back to XDG_DATA_HOME/bosun", () => {
    assert.equal(databasePath({ XDG_DATA_HOME: "/xdg" }), join("/xdg", "bosun", "bosun.db"));
  });
});

describe("openDatabase: migrations", () => {
  test("there is at least one migration and each is non-empty SQL", () => {
    assert.ok(MIGRATIONS.length >= 1);
    for (const sql of MIGRATIONS) assert.match(sql, /\S/);
  });

  test("a fresh database (and its missing folder) is created at the latest schema version", () => {
    const path = freshPath();
    const db = openDatabase(path);
    try {
      assert.ok(existsSync(path));
      assert.equal(db.pragma("user_version", { simple: true }), MIGRATIONS.length);
      assert.deepEqual(tables(db), [
        "events",
        "saved_approvals",
        "session_leases",
        "sessions",
        "sqlite_sequence",
        "trusted_projects",
      ]);
    } finally {
      db.close();
    }
  });

  test("WAL journal, full sync, foreign keys and a busy timeout are on", () => {
    const db = openDatabase(freshPath());
    try {
      assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
      // 2 = FULL: every commit is on disk before it returns, so a recorded event survives power loss.
      assert.equal(db.pragma("synchronous", { simple: true }), 2);
      assert.equal(db.pragma("foreign_keys", { simple: true }), 1);
      assert.ok((db.pragma("busy_timeout", { simple: true }) as number) >= 1000);
    } finally {
      db.close();
    }
  });

  test("WAL stays on for the file: a plain connection opened later sees it", () => {
    const path = freshPath();
    openDatabase(path).close();
    const plain = new Sqlite(path);
    try {
      assert.equal(plain.pragma("journal_mode", { simple: true }), "wal");
    } finally {
      plain.close();
    }
  });

  test("reopening is idempotent: no migration runs twice and data survives", () => {
    const path = freshPath();
    const first = SessionStore.open(path);
    const session = first.create({ directory: "/repo", title: "kept" });
    first.append(session.id, "note", { n: 1 });
    first.close();

    for (let i = 0; i < 3; i++) {
      const again = SessionStore.open(path);
      try {
        assert.equal(again.db.pragma("user_version", { simple: true }), MIGRATIONS.length);
        assert.deepEqual(tables(again.db), [
          "events",
          "saved_approvals",
          "session_leases",
          "sessions",
          "sqlite_sequence",
          "trusted_projects",
        ]);
        assert.equal(again.get(session.id)?.title, "kept");
        assert.deepEqual(
          again.events(session.id).map((e) => e.seq),
          [1, 2],
        );
      } finally {
        again.close();
      }
    }
  });

  test("a database from a newer bosun is refused with a clear error and left untouched", () => {
    // Written by "a newer bosun" in rollback-journal mode, so any change we make is visible.
    const path = join(mkdtempSync(join(root, "future-")), "bosun.db");
    const raw = new Sqlite(path);
    const future = MIGRATIONS.length + 5;
    raw.pragma(`user_version = ${future}`);
    raw.exec("CREATE TABLE from_the_future (x)");
    raw.close();

    assert.throws(
      () => openDatabase(path),
      (error: unknown) => {
        assert.ok(error instanceof BosunError, "a BosunError, so the CLI prints it instead of a stack");
        assert.equal(error.exitCode, 1);
        assert.match(error.message, new RegExp(`schema version ${future}`));
        assert.match(error.message, new RegExp(`newer than this bosun knows \\(${MIGRATIONS.length}\\)`));
        assert.match(error.message, /upgrade bosun/);
        return true;
      },
    );
    assert.throws(() => SessionStore.open(path), /newer than this bosun knows/);

    const check = new Sqlite(path);
    try {
      assert.equal(check.pragma("user_version", { simple: true }), future);
      assert.deepEqual(tables(check), ["from_the_future"]);
      assert.equal(check.pragma("journal_mode", { simple: true }), "delete");
    } finally {
      check.close();
    }
  });

  test("a database at an older version (0, an existing empty file) is migrated forward", () => {
    const path = join(mkdtempSync(join(root, "old-")), "bosun.db");
    const raw = new Sqlite(path);
    raw.exec("CREATE TABLE unrelated (x)");
    raw.close();
    const db = openDatabase(path);
    try {
      assert.equal(db.pragma("user_version", { simple: true }), MIGRATIONS.length);
      assert.deepEqual(tables(db), [
        "events",
        "saved_approvals",
        "session_leases",
        "sessions",
        "sqlite_sequence",
        "trusted_projects",
        "unrelated",
      ]);
    } finally {
      db.close();
    }
  });

  test("the schema enforces the log's invariants", () => {
    const db = openDatabase(freshPath());
    try {
      db.prepare("INSERT INTO sessions (id, directory, created, updated) VALUES ('S', '/d', 1, 1)").run();
      db.prepare("INSERT INTO events (session_id, seq, type, data, at) VALUES ('S', 1, 't', 'null', 1)").run();
      // One seq per session, ever.
      assert.throws(
        () => db.prepare("INSERT INTO events (session_id, seq, type, data, at) VALUES ('S', 1, 't', 'null', 2)").run(),
        /UNIQUE|PRIMARY KEY/,
      );
      // No events without a session.
      assert.throws(
        () =>
          db.prepare("INSERT INTO events (session_id, seq, type, data, at) VALUES ('nope', 1, 't', 'null', 1)").run(),
        /FOREIGN KEY/,
      );
      // Deleting a session deletes its events.
      db.prepare("DELETE FROM sessions WHERE id = 'S'").run();
      assert.equal((db.prepare("SELECT COUNT(*) AS n FROM events").get() as { n: number }).n, 0);
    } finally {
      db.close();
    }
  });

  test("several processes opening the same fresh database at once migrate it exactly once", async () => {
    const path = freshPath();
    const runs = Array.from({ length: 4 }, () => runWorker([path, "no-session", "0", "opener"]));
    const results = await Promise.all(runs);
    for (const result of results) assert.equal(result.code, 0, result.stderr);

    const db = openDatabase(path);
    try {
      assert.equal(db.pragma("user_version", { simple: true }), MIGRATIONS.length);
      assert.deepEqual(tables(db), [
        "events",
        "saved_approvals",
        "session_leases",
        "sessions",
        "sqlite_sequence",
        "trusted_projects",
      ]);
      assert.equal(db.pragma("integrity_check", { simple: true }), "ok");
    } finally {
      db.close();
    }
  });
});

/** Runs the append worker and lets it go as soon as it is ready. */
function runWorker(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let started = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (!started && stdout.startsWith("ready\n")) {
        started = true;
        child.stdin.end("go\n");
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("openDatabase: owner-only files", () => {
  const octal = (path: string) => (statSync(path).mode & 0o777).toString(8);
  const wide = <T>(fn: () => T): T => {
    const umask = process.umask(0o022);
    try {
      return fn();
    } finally {
      process.umask(umask);
    }
  };

  test("a new database is 0600 in a 0700 folder, and so are the -wal and -shm SQLite makes beside it", () =>
    wide(() => {
      const path = freshPath();
      const db = openDatabase(path);
      try {
        db.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)");
        assert.deepEqual([dirname(path), path, `${path}-wal`, `${path}-shm`].map(octal), ["700", "600", "600", "600"]);
        // The folder above the data folder is the person's, made as any program would.
        assert.equal(octal(dirname(dirname(path))), "755");
      } finally {
        db.close();
      }
    }));

  test("a database, -wal and -shm an older bosun left at 0644 are narrowed when opened to write", () =>
    wide(() => {
      const path = freshPath();
      mkdirSync(dirname(path), { recursive: true });
      // Made the old way, and held open so its -wal and -shm stay.
      const old = new Sqlite(path);
      old.pragma("journal_mode = WAL");
      for (const migration of MIGRATIONS) old.exec(migration);
      old.pragma(`user_version = ${MIGRATIONS.length}`);
      try {
        assert.deepEqual([dirname(path), path, `${path}-wal`, `${path}-shm`].map(octal), ["755", "644", "644", "644"]);
        openDatabase(path, { readonly: true }).close();
        assert.deepEqual(
          [dirname(path), path, `${path}-wal`].map(octal),
          ["755", "644", "644"],
          "reading changes no mode",
        );
        openDatabase(path).close();
        assert.deepEqual([dirname(path), path, `${path}-wal`, `${path}-shm`].map(octal), ["700", "600", "600", "600"]);
      } finally {
        old.close();
      }
    }));
});

describe("openDatabase: readonly (reading commands)", () => {
  test("a database not there yet reads as an empty one, and nothing is created", () => {
    const path = freshPath();
    const db = openDatabase(path, { readonly: true });
    try {
      assert.equal(existsSync(dirname(path)), false);
      assert.deepEqual(db.prepare("SELECT COUNT(*) AS n FROM sessions").get(), { n: 0 });
    } finally {
      db.close();
    }
  });

  test("reads what was written and refuses to write", () => {
    const path = freshPath();
    const store = SessionStore.open(path);
    const session = store.create({ directory: "/repo", title: "kept" });
    store.close();
    const reader = SessionStore.open(path, Date.now, { readonly: true });
    try {
      assert.equal(reader.get(session.id)?.title, "kept");
      assert.throws(() => reader.append(session.id, "note", {}), { code: "SQLITE_READONLY" });
    } finally {
      reader.close();
    }
  });

  test("a garbage file is a StoreError naming it, left as it was", () => {
    const path = freshPath();
    mkdirSync(dirname(path), { recursive: true });
    const garbage = "not a database at all\n".repeat(300);
    writeFileSync(path, garbage);
    for (const readonly of [true, false]) {
      assert.throws(
        () => openDatabase(path, { readonly }),
        (error: unknown) =>
          error instanceof StoreError && error.failure === "corrupt" && error.message.startsWith(`${path} is not`),
      );
    }
    assert.equal(readFileSync(path, "utf8"), garbage);
  });

  test("in a folder that cannot be written: read from a copy in memory (migrated), the file untouched", (t) => {
    const path = freshPath();
    mkdirSync(dirname(path), { recursive: true });
    const old = new Sqlite(path);
    old.pragma("journal_mode = WAL");
    old.exec(MIGRATIONS[0] as string);
    old.exec("INSERT INTO sessions (id, directory, created, updated) VALUES ('s1', '/repo', 1, 1)");
    old.pragma("user_version = 1");
    old.close();
    const locked = makeReadOnly(dirname(path));
    if ("unavailable" in locked) {
      console.log(`skipped: ${locked.unavailable}`);
      t.skip(locked.unavailable);
      return;
    }
    try {
      // SQLite itself cannot open a WAL database here: there is no -shm and none can be made.
      assert.throws(() => new Sqlite(path, { readonly: true }).pragma("user_version"), { code: "SQLITE_CANTOPEN" });
      const db = openDatabase(path, { readonly: true });
      try {
        assert.equal(db.pragma("user_version", { simple: true }), MIGRATIONS.length);
        assert.deepEqual(db.prepare("SELECT id FROM sessions").all(), [{ id: "s1" }]);
      } finally {
        db.close();
      }
      assert.throws(
        () => openDatabase(path),
        (error: unknown) => error instanceof StoreError && error.failure === "read-only",
      );
    } finally {
      locked.restore();
    }
    const after = new Sqlite(path, { readonly: true });
    try {
      assert.equal(after.pragma("user_version", { simple: true }), 1);
    } finally {
      after.close();
    }
  });

  test("an older schema is migrated as a writing open would", () => {
    const path = freshPath();
    mkdirSync(dirname(path), { recursive: true });
    const old = new Sqlite(path);
    old.exec(MIGRATIONS[0] as string);
    old.pragma("user_version = 1");
    old.close();
    const db = openDatabase(path, { readonly: true });
    try {
      assert.equal(db.pragma("user_version", { simple: true }), MIGRATIONS.length);
      assert.ok(tables(db).includes("session_leases"));
    } finally {
      db.close();
    }
  });
});

describe("a path that is not what bosun keeps there", () => {
  test("a database path that is a folder is said as such, for writing and reading alike", () => {
    const path = join(root, "folder-db", "bosun.db");
    mkdirSync(path, { recursive: true });
    for (const readonly of [false, true]) {
      assert.throws(
        () => openDatabase(path, { readonly }),
        (error: unknown) =>
          error instanceof StoreError &&
          error.message.startsWith(`${path} is a folder, not a database file; move it aside`) &&
          error.exitCode === 1,
      );
    }
  });

  test("a data folder that is a file: no 'no sessions yet' from a reading command, no mkdir error", () => {
    const home = join(root, "home-is-a-file");
    writeFileSync(home, "not a folder");
    const path = join(home, "data", "bosun.db");
    for (const readonly of [false, true]) {
      assert.throws(
        () => openDatabase(path, { readonly }),
        (error: unknown) =>
          error instanceof StoreError &&
          error.message.startsWith(`${home} is a file, so bosun cannot keep its data under it`),
      );
    }
  });
});

describe("openDatabase: statements", () => {
  test("the same SQL is compiled once per connection, and answers as a fresh statement would", () => {
    const dir = mkdtempSync(join(tmpdir(), "bosun-db-stmt-"));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "bosun.db");
    const db = openDatabase(path);
    const other = openDatabase(path);
    try {
      const sql = "SELECT COUNT(*) AS n FROM sessions";
      const first = db.prepare(sql);
      assert.equal(db.prepare(sql), first, "compiled once");
      assert.notEqual(other.prepare(sql), first, "each connection its own");
      assert.equal((first.get() as { n: number }).n, 0);
      db.prepare("INSERT INTO sessions (id, title, directory, created, updated) VALUES (?, ?, ?, ?, ?)").run(
        "s1",
        "t",
        dir,
        1,
        1,
      );
      // Reused, it reads the table as it is now — in this connection and, once committed, in another.
      assert.equal((db.prepare(sql).get() as { n: number }).n, 1);
      assert.equal((other.prepare(sql).get() as { n: number }).n, 1);
    } finally {
      db.close();
      other.close();
    }
  });
});
