import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import type BetterSqlite3 from "better-sqlite3";
import { BosunError } from "../errors.js";
import { StoreError } from "../store/failure.js";
import { explainFailure } from "./failure.js";

const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
const root = mkdtempSync(join(tmpdir(), "bosun-explain-test-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("a SQLite error that escaped a command is explained as one on the session database", () => {
  const garbage = join(root, "garbage.db");
  writeFileSync(garbage, "not a database\n".repeat(100));
  let raw: unknown;
  try {
    new Sqlite(garbage).pragma("user_version");
  } catch (error) {
    raw = error;
  }
  const before = process.env.BOSUN_HOME;
  process.env.BOSUN_HOME = join(root, "home");
  try {
    const explained = explainFailure(raw);
    assert.ok(explained instanceof StoreError);
    assert.equal(explained.failure, "corrupt");
    assert.ok(
      explained.message.startsWith(`${join(root, "home", "data", "bosun.db")} is not a readable bosun database`),
    );
  } finally {
    if (before === undefined) delete process.env.BOSUN_HOME;
    else process.env.BOSUN_HOME = before;
  }
});

test("a file system error naming its file is said with that file; anything else is left as it was", () => {
  const full = Object.assign(new Error("ENOSPC: no space left on device, write"), {
    code: "ENOSPC",
    path: "/work/out.txt",
  });
  const explained = explainFailure(full);
  assert.ok(explained instanceof BosunError);
  assert.equal(explained.exitCode, 1);
  assert.equal(explained.message, "/work/out.txt: the disk is full; free some space and try again (ENOSPC)");
  const bug = new TypeError("x is undefined");
  assert.equal(explainFailure(bug), bug);
  const noPath = Object.assign(new Error("no space"), { code: "ENOSPC" });
  assert.equal(explainFailure(noPath), noPath);
  const usage = new BosunError("already clear", 2);
  assert.equal(explainFailure(usage), usage);
});
