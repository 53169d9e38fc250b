import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type BetterSqlite3 from "better-sqlite3";
import { classifyStoreFailure, StoreError, storeError } from "./failure.js";

const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
const root = mkdtempSync(join(tmpdir(), "bosun-failure-test-"));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const fresh = () => {
  const folder = join(root, `case-${++counter}`);
  mkdirSync(folder);
  return join(folder, "bosun.db");
};

/** The error `fn` throws: real SQLite and file system failures, not made-up ones. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail("expected an error");
}

describe("classifyStoreFailure, on real failures", () => {
  test("a file that is no database: corrupt", () => {
    const path = fresh();
    writeFileSync(path, "hello, not a database\n".repeat(200));
    const error = thrown(() => new Sqlite(path).pragma("user_version"));
    assert.equal((error as { code: string }).code, "SQLITE_NOTADB");
    assert.equal(classifyStoreFailure(error), "corrupt");
    const explained = storeError(error, path);
    assert.ok(explained instanceof StoreError);
    assert.equal(explained.exitCode, 1);
    assert.equal(
      explained.message,
      `${path} is not a readable bosun database (file is not a database); move it aside (mv ${path} ${path}.broken) and bosun starts a new one; \`bosun doctor\` checks it`,
    );
  });

  test("a write to a database opened read-only: read-only, naming the folder", () => {
    const path = fresh();
    new Sqlite(path).exec("CREATE TABLE t (x)");
    const db = new Sqlite(path, { readonly: true });
    const error = thrown(() => db.exec("INSERT INTO t VALUES (1)"));
    db.close();
    assert.equal((error as { code: string }).code, "SQLITE_READONLY");
    assert.equal(classifyStoreFailure(error), "read-only");
    assert.match(
      storeError(error, path)?.message ?? "",
      /^cannot write .*bosun\.db: .*case-\d+ is read-only or not yours \(SQLITE_READONLY\); make it writable, or point BOSUN_HOME/,
    );
  });

  test("no room left: full, saying nothing recorded is lost and how to carry on", () => {
    const path = fresh();
    const db = new Sqlite(path);
    db.exec("CREATE TABLE t (x)");
    // A database that may not grow is full the way a full disk is: SQLite says SQLITE_FULL.
    db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true })}`);
    const error = thrown(() => db.prepare("INSERT INTO t VALUES (?)").run("x".repeat(100_000)));
    db.close();
    assert.equal((error as { code: string }).code, "SQLITE_FULL");
    assert.equal(classifyStoreFailure(error), "full");
    assert.match(
      storeError(error, path)?.message ?? "",
      /the disk is full \(SQLITE_FULL\); nothing already recorded is lost — free some space .*bosun run -c resumes/,
    );
  });

  test("a lock held past the timeout: busy", () => {
    const path = fresh();
    const holder = new Sqlite(path);
    holder.exec("CREATE TABLE t (x); BEGIN IMMEDIATE");
    const waiter = new Sqlite(path, { timeout: 0 });
    const error = thrown(() => waiter.exec("BEGIN IMMEDIATE"));
    waiter.close();
    holder.close();
    assert.match((error as { code: string }).code, /^SQLITE_BUSY/);
    assert.equal(classifyStoreFailure(error), "busy");
    assert.match(storeError(error, path)?.message ?? "", /stayed locked by another bosun process/);
  });

  test("a file that is not there, in a folder bosun may write: cannot open (not read-only)", () => {
    const path = fresh();
    const error = thrown(() => new Sqlite(path, { fileMustExist: true, readonly: true }));
    assert.equal(classifyStoreFailure(error), "cannot-open");
    assert.match(storeError(error, path)?.message ?? "", /^cannot open .*bosun\.db \(SQLITE_CANTOPEN: /);
  });

  test("file system errors: a data folder under a file cannot be opened, ENOSPC is full", () => {
    const file = fresh();
    writeFileSync(file, "");
    const error = thrown(() => mkdirSync(join(file, "data"), { recursive: true }));
    assert.equal((error as { code: string }).code, "ENOTDIR");
    assert.equal(classifyStoreFailure(error), "cannot-open");
    assert.equal(classifyStoreFailure(Object.assign(new Error("no space"), { code: "ENOSPC" })), "full");
  });

  test("anything else is no store failure, and stays what it was", () => {
    assert.equal(classifyStoreFailure(new Error("boom")), undefined);
    assert.equal(classifyStoreFailure(Object.assign(new Error("x"), { code: "SQLITE_ERROR" })), undefined);
    assert.equal(storeError(new TypeError("bug"), "/x/bosun.db"), undefined);
    const known = new StoreError("already explained", "full");
    assert.equal(storeError(known, "/x/bosun.db"), known);
  });
});
