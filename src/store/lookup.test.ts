import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, beforeEach, describe, test } from "node:test";
import { UsageError } from "../errors.js";
import { findSession, matchSession } from "./lookup.js";
import { SessionStore } from "./session-store.js";

const root = mkdtempSync(join(tmpdir(), "bosun-lookup-test-"));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
let store: SessionStore;
let clock = 0;

beforeEach(() => {
  clock = 1_700_000_000_000;
  store = SessionStore.open(join(root, `lookup-${++counter}.db`), () => clock++);
});
afterEach(() => store.close());

/** A session with an id the test chooses, so prefixes can be made to collide on purpose. */
function put(id: string, title = "", directory = "/repo"): void {
  const at = clock++;
  store.insertWhole({ id, title, directory, parentId: null, created: at, updated: at }, [
    { seq: 1, type: "session.created", data: { title, directory, parent: null }, at },
  ]);
}

/** Asserts `findSession` refuses `ref` as a usage error (exit 2) and returns the message. */
function refused(ref: string): string {
  let message = "";
  assert.throws(
    () => findSession(store, ref),
    (error: unknown) => {
      assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
      assert.equal(error.exitCode, 2);
      message = error.message;
      return true;
    },
  );
  return message;
}

describe("findSession finds", () => {
  test("a session by its full id", () => {
    const a = store.create({ directory: "/repo", title: "a" });
    store.create({ directory: "/repo", title: "b" });
    assert.deepEqual(findSession(store, a.id), a);
  });

  test("a session by its full id in lower case, or with spaces around it", () => {
    const a = store.create({ directory: "/repo" });
    store.create({ directory: "/repo" });
    assert.equal(findSession(store, a.id.toLowerCase()).id, a.id);
    assert.equal(findSession(store, `  ${a.id}\n`).id, a.id);
  });

  test("a session by a unique id prefix, in either case", () => {
    put("01AAAAAAAAAAAAAAAAAAAAAAAA", "first");
    put("01BBBBBBBBBBBBBBBBBBBBBBBB", "second");
    assert.equal(findSession(store, "01A").id, "01AAAAAAAAAAAAAAAAAAAAAAAA");
    assert.equal(findSession(store, "01b").id, "01BBBBBBBBBBBBBBBBBBBBBBBB");
  });

  test("a session by its exact title, whatever directory it is in", () => {
    put("01AAAAAAAAAAAAAAAAAAAAAAAA", "fix the parser", "/one");
    put("01BBBBBBBBBBBBBBBBBBBBBBBB", "fix the lexer", "/two");
    assert.equal(findSession(store, "fix the lexer").id, "01BBBBBBBBBBBBBBBBBBBBBBBB");
    assert.equal(findSession(store, "fix the parser").id, "01AAAAAAAAAAAAAAAAAAAAAAAA");
  });

  test("a session whose id was stored in lower case (e.g. imported), by that id", () => {
    put("01lowercaseid000000000000a", "imported");
    assert.equal(findSession(store, "01lowercaseid000000000000a").title, "imported");
    assert.equal(findSession(store, "01LOWERCASE").title, "imported");
  });

  test("by full id first, then prefix, then title", () => {
    put("01AAAAAAAAAAAAAAAAAAAAAAAA", "01BBBBBBBBBBBBBBBBBBBBBBBB");
    put("01BBBBBBBBBBBBBBBBBBBBBBBB", "01A");
    // A full id beats another session's identical title.
    assert.equal(findSession(store, "01BBBBBBBBBBBBBBBBBBBBBBBB").id, "01BBBBBBBBBBBBBBBBBBBBBBBB");
    // A unique prefix beats another session's identical title.
    assert.equal(findSession(store, "01A").id, "01AAAAAAAAAAAAAAAAAAAAAAAA");
  });
});

describe("findSession refuses (exit 2)", () => {
  test("an unknown ref, listing the closest sessions by title", () => {
    put("01AAAAAAAAAAAAAAAAAAAAAAAA", "refactor parser");
    put("01BBBBBBBBBBBBBBBBBBBBBBBB", "write docs");
    const message = refused("refactor parsre");
    assert.match(message, /^no session matches "refactor parsre"; closest:\n/);
    assert.match(message, /01AAAAAAAAAAAAAAAAAAAAAAAA {2}refactor parser {2}\/repo/);
    assert.doesNotMatch(message, /write docs/);
  });

  test("an id with a typo, listing the session it was probably meant to be", () => {
    put("01AAAAAAAAAAAAAAAAAAAAAAAA", "one");
    put("01BBBBBBBBBBBBBBBBBBBBBBBB", "two");
    const message = refused("01AAAAAAAAAAAAZAAAAAAAAAAA");
    assert.match(message, /no session matches "01AAAAAAAAAAAAZAAAAAAAAAAA"; closest:/);
    assert.match(message, /01AAAAAAAAAAAAAAAAAAAAAAAA {2}one/);
    assert.doesNotMatch(message, /01BBBBBBBBBBBBBBBBBBBBBBBB/);
  });

  test("an unknown ref with nothing close: lists the most recent sessions, at most five", () => {
    put("01AAAAAAAAAAAAAAAAAAAAAAAA", "refactor parser");
    assert.equal(
      refused("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"),
      'no session matches "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"; recent:\n  01AAAAAAAAAAAAAAAAAAAAAAAA  refactor parser  /repo',
    );
    for (let i = 0; i < 7; i++) put(`01R${String(i).padStart(23, "0")}`, `task ${i}`);
    const message = refused("banana");
    assert.match(message, /^no session matches "banana"; recent:\n/);
    const listed = message.split("\n").slice(1);
    // Newest first (put() moves the clock forward), five of eight.
    assert.deepEqual(
      listed.map((line) => line.trim().split("  ")[1]),
      ["task 6", "task 5", "task 4", "task 3", "task 2"],
    );
  });

  test("a mistyped id prefix lists the session whose prefix it nearly is", () => {
    put("01HZX4K7Q2M9V8B3N6C5D1E0FA", "one");
    put("01HZX4K7Q2T0P1R2S3T4V5W6XB", "two");
    put("01JAAAAAAAAAAAAAAAAAAAAAAC", "three");
    // One character off in the first eight: compared with the ids' first eight characters.
    const message = refused("01HZX4K8");
    assert.match(message, /^no session matches "01HZX4K8"; closest:\n/);
    assert.match(message, /01HZX4K7Q2M9V8B3N6C5D1E0FA {2}one/);
    assert.match(message, /01HZX4K7Q2T0P1R2S3T4V5W6XB {2}two/);
    assert.doesNotMatch(message, /three/);
    // Past the shared time part, the typo singles one out; lower case is the same id.
    const single = refused("01hzx4k7q2m9v8b3n7");
    assert.match(single, /closest:\n {2}01HZX4K7Q2M9V8B3N6C5D1E0FA {2}one {2}\/repo$/);
    // A dropped character is an edit too.
    assert.match(refused("01HZX4K7Q2M9V8B3NC5D1E0FA"), /closest:\n {2}01HZX4K7Q2M9V8B3N6C5D1E0FA {2}one {2}\/repo$/);
  });

  test("a short or spaced ref is not compared with ids, only with titles", () => {
    put("01HZX4K7Q2M9V8B3N6C5D1E0FA", "one");
    // Two characters one edit from "01" would otherwise be "close" to every session.
    assert.match(refused("0X"), /; recent:\n/);
    assert.match(refused("01H Z"), /; recent:\n/);
  });

  test("suggests at most five sessions, closest first", () => {
    for (let i = 0; i < 8; i++) put(`01HZX4K7Q2${String(i).padStart(16, "0")}`, `s${i}`);
    const message = refused("01HZX4K7Q3");
    assert.match(message, /closest:/);
    assert.equal(message.split("\n").length, 1 + 5);
  });

  test("a title match is exact: different case is not a match", () => {
    put("01AAAAAAAAAAAAAAAAAAAAAAAA", "Fix Bug");
    const message = refused("fix bug");
    assert.match(message, /^no session matches "fix bug"; closest:/);
    assert.match(message, /01AAAAAAAAAAAAAAAAAAAAAAAA {2}Fix Bug/);
  });

  test("an ambiguous id prefix, listing every candidate and nothing else", () => {
    put("01ABC0000000000000000000AA", "one");
    put("01ABC0000000000000000000BB", "two");
    put("01XYZ0000000000000000000CC", "three");
    const message = refused("01abc");
    assert.match(message, /^"01abc" matches 2 sessions; give more of the id:\n/);
    assert.match(message, /01ABC0000000000000000000AA {2}one/);
    assert.match(message, /01ABC0000000000000000000BB {2}two/);
    assert.doesNotMatch(message, /01XYZ/);
    // One more character makes it unique.
    assert.equal(findSession(store, "01ABC0000000000000000000A").title, "one");
  });

  test("a prefix shared by many sessions lists at most ten of them but counts them all", () => {
    for (let i = 0; i < 12; i++) put(`01MANY${String(i).padStart(20, "0")}`, `s${i}`);
    const message = refused("01MANY");
    assert.match(message, /"01MANY" matches 12 sessions/);
    assert.equal(message.split("\n").filter((line) => line.startsWith("  01MANY")).length, 10);
  });

  test("a title two sessions share, listing both", () => {
    put("01AAAAAAAAAAAAAAAAAAAAAAAA", "same", "/one");
    put("01BBBBBBBBBBBBBBBBBBBBBBBB", "same", "/two");
    put("01CCCCCCCCCCCCCCCCCCCCCCCC", "different");
    const message = refused("same");
    assert.match(message, /^"same" is the title of 2 sessions; use an id:\n/);
    assert.match(message, /01AAAAAAAAAAAAAAAAAAAAAAAA {2}same {2}\/one/);
    assert.match(message, /01BBBBBBBBBBBBBBBBBBBBBBBB {2}same {2}\/two/);
    assert.doesNotMatch(message, /different/);
    // Each is still reachable by id.
    assert.equal(findSession(store, "01B").directory, "/two");
  });

  test("any ref when there are no sessions at all", () => {
    assert.equal(refused("anything"), 'no session matches "anything"; there are no sessions yet');
    assert.match(refused("01ARZ3NDEKTSV4RRFFQ69G5FAV"), /there are no sessions yet/);
  });

  test("an empty or blank ref", () => {
    store.create({ directory: "/repo", title: "" });
    assert.match(refused(""), /a session id, id prefix or title is required/);
    assert.match(refused("   "), /a session id, id prefix or title is required/);
  });

  test("a deleted session", () => {
    const s = store.create({ directory: "/repo", title: "short-lived" });
    store.delete(s.id);
    assert.match(refused(s.id), /no session matches/);
    assert.match(refused("short-lived"), /no session matches/);
  });

  test("untitled sessions are never matched by an empty title and list as (untitled)", () => {
    put("01AAAAAAAAAAAAAAAAAAAAAAAA", "");
    put("01AAAAAAAAAAAAAAAAAAAAAAAB", "");
    const message = refused("01AAAAAAAAAAAAAAAAAAAAAAA");
    assert.match(message, /01AAAAAAAAAAAAAAAAAAAAAAAA {2}\(untitled\) {2}\/repo/);
  });
});

describe("matchSession says how the ref matched", () => {
  test("id for the whole id in any case, prefix for less, title for a title", () => {
    put("01AAAAAAAAAAAAAAAAAAAAAAAA", "first");
    put("01lowercaseid000000000000a", "imported");
    const by = (ref: string) => matchSession(store, ref).by;
    assert.equal(by("01AAAAAAAAAAAAAAAAAAAAAAAA"), "id");
    assert.equal(by("01aaaaaaaaaaaaaaaaaaaaaaaa"), "id");
    assert.equal(by(" 01AAAAAAAAAAAAAAAAAAAAAAAA "), "id");
    assert.equal(by("01lowercaseid000000000000a"), "id");
    assert.equal(by("01LOWERCASEID000000000000A"), "id");
    assert.equal(by("01A"), "prefix");
    assert.equal(by("01AAAAAAAAAAAAAAAAAAAAAAA"), "prefix");
    assert.equal(by("first"), "title");
    assert.equal(matchSession(store, "first").session.id, "01AAAAAAAAAAAAAAAAAAAAAAAA");
  });
});
