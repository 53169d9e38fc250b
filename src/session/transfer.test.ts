import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, beforeEach, describe, test } from "node:test";
import { UsageError } from "../errors.js";
import { SessionStore } from "../store/session-store.js";
import { forkSession } from "./open.js";
import { EVENT_SCHEMAS, eventProblem } from "./schemas.js";
import { EXPORT_FORMAT, exportSession, importSession, type SessionExport } from "./transfer.js";

const root = mkdtempSync(join(tmpdir(), "bosun-transfer-test-"));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
let store: SessionStore;
let clock = 0;

beforeEach(() => {
  clock = Date.UTC(2025, 0, 2, 3, 4, 5, 678);
  store = SessionStore.open(join(root, `transfer-${++counter}.db`), () => clock);
});
afterEach(() => store.close());

/** A session with a few events of different shapes, at different times. */
function sample(title = "sample") {
  const session = store.create({ directory: "/work/repo", title });
  clock += 1_001;
  store.append(session.id, "message.user", { text: "hi ✓", files: [{ path: "a.txt", content: "one\n" }] });
  clock += 2_002;
  store.append(session.id, "decision", {
    seat: "session.target",
    holder: "code",
    answer: { mode: "new" },
    reasons: [{ rule: "default", decisive: true }],
  });
  clock += 3;
  store.append(session.id, "message.notice", { text: "plain" });
  return store.get(session.id) ?? assert.fail("created session missing");
}

function snapshot() {
  return {
    sessions: store.db.prepare("SELECT * FROM sessions ORDER BY id").all(),
    events: store.db.prepare("SELECT * FROM events ORDER BY session_id, seq").all(),
  };
}

/** Asserts the import is refused as a usage error (exit 2) with nothing written; returns the message. */
function refusedImport(input: unknown, source = "file.json"): string {
  const before = snapshot();
  let message = "";
  assert.throws(
    () => importSession(store, input, source),
    (error: unknown) => {
      assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
      assert.equal(error.exitCode, 2);
      message = error.message;
      return true;
    },
  );
  assert.deepEqual(snapshot(), before, "a refused import wrote something");
  return message;
}

/** A valid export as plain JSON (as it would be read back from a file). */
function exported(title?: string): SessionExport {
  return JSON.parse(JSON.stringify(exportSession(store, sample(title)))) as SessionExport;
}

describe("exportSession", () => {
  test("writes the versioned format with the session and every event, times as ISO strings", () => {
    const session = sample();
    const data = exportSession(store, session);
    assert.equal(data.format, EXPORT_FORMAT);
    assert.equal(EXPORT_FORMAT, "bosun.session/1");
    assert.deepEqual(data.session, {
      id: session.id,
      title: "sample",
      directory: "/work/repo",
      parent: null,
      created: "2025-01-02T03:04:05.678Z",
      updated: new Date(session.updated).toISOString(),
    });
    assert.equal(data.session.updated, "2025-01-02T03:04:08.684Z");
    assert.deepEqual(
      data.events.map((e) => [e.seq, e.type, e.at]),
      [
        [1, "session.created", "2025-01-02T03:04:05.678Z"],
        [2, "message.user", "2025-01-02T03:04:06.679Z"],
        [3, "decision", "2025-01-02T03:04:08.681Z"],
        [4, "message.notice", "2025-01-02T03:04:08.684Z"],
      ],
    );
    assert.deepEqual(
      data.events.map((e) => e.data),
      store.events(session.id).map((e) => e.data),
    );
  });
});

describe("importSession", () => {
  test("export -> delete -> import restores the session and every event exactly", () => {
    const file = exported();
    const id = file.session.id;
    const before = store.events(id);
    const info = store.get(id);
    assert.equal(store.delete(id), true);

    const imported = importSession(store, file, "file.json");
    assert.deepEqual(imported, info);
    assert.deepEqual(store.get(id), info);
    assert.deepEqual(store.events(id), before);
    assert.deepEqual(JSON.parse(JSON.stringify(exportSession(store, imported))), file);
  });

  test("keeps the parent and works into an empty database, once the parent is imported", () => {
    const parent = exported("parent");
    const file = exported("child");
    file.session.parent = parent.session.id;
    const other = SessionStore.open(join(root, `transfer-other-${counter}.db`));
    try {
      importSession(other, parent, "parent.json");
      const imported = importSession(other, file, "file.json");
      assert.equal(imported.parentId, parent.session.id);
      assert.equal(other.events(imported.id).length, 4);
      assert.equal(other.list().length, 2);
    } finally {
      other.close();
    }
  });

  test("imports a fork without its original: a fork is a whole copy, and keeps naming where it came from", () => {
    const original = store.create({ directory: "/work/repo", title: "original" });
    const fork = forkSession(store, original.id, "/work/repo");
    const file = JSON.parse(JSON.stringify(exportSession(store, fork))) as SessionExport;
    assert.equal(file.session.parent, original.id);
    const other = SessionStore.open(join(root, `transfer-fork-${++counter}.db`));
    try {
      assert.equal(importSession(other, file, "fork.json").parentId, original.id);
      // A child that is no fork of that parent still needs it.
      const created = file.events[0] as { data: Record<string, unknown> };
      const notFork = {
        ...file,
        events: [{ ...created, data: { ...created.data, forked_from: undefined } }, ...file.events.slice(1)],
      };
      other.delete(fork.id);
      assert.throws(() => importSession(other, notFork, "child.json"), /import the parent first/);
    } finally {
      other.close();
    }
  });

  test("refuses a parent that is not here, asking for the parent first", () => {
    const file = exported();
    store.delete(file.session.id);
    const message = refusedImport({ ...file, session: { ...file.session, parent: "01PARENT000000000000000000" } });
    assert.equal(
      message,
      "file.json: its parent session 01PARENT000000000000000000 does not exist here; import the parent first",
    );
    // A parent deleted since the export counts as absent too; null is always fine.
    const parent = store.create({ directory: "/work/repo", title: "parent" });
    assert.equal(
      importSession(store, { ...file, session: { ...file.session, parent: parent.id } }, "f").parentId,
      parent.id,
    );
    store.delete(file.session.id);
    store.delete(parent.id);
    assert.match(
      refusedImport({ ...file, session: { ...file.session, parent: parent.id } }),
      /import the parent first/,
    );
  });

  test("refuses an updated time earlier than the created time", () => {
    const file = exported();
    store.delete(file.session.id);
    const message = refusedImport({
      ...file,
      session: { ...file.session, created: "2025-01-02T03:04:05.678Z", updated: "2025-01-02T03:04:05.677Z" },
    });
    assert.equal(
      message,
      "file.json: session.updated (2025-01-02T03:04:05.677Z) is earlier than session.created (2025-01-02T03:04:05.678Z)",
    );
    // Equal is fine: a session nothing was appended to.
    const same = { ...file, session: { ...file.session, updated: file.session.created } };
    assert.equal(importSession(store, same, "f").updated, Date.parse(file.session.created));
  });

  test("an imported log continues where it ended", () => {
    const file = exported();
    store.delete(file.session.id);
    importSession(store, file, "file.json");
    assert.equal(store.append(file.session.id, "next", {}).seq, 5);
  });

  test("refuses a session whose id already exists, and leaves that session alone", () => {
    const file = exported();
    file.session.title = "changed";
    const message = refusedImport(file);
    assert.match(message, new RegExp(`session ${file.session.id} already exists; delete it first`));
    assert.equal(store.get(file.session.id)?.title, "sample");
  });

  test("refuses what is not a bosun export, naming the source and the problems", () => {
    assert.match(refusedImport(null, "stdin"), /^stdin is not a bosun session export \(bosun\.session\/1\):/);
    assert.match(refusedImport([]), /is not a bosun session export/);
    assert.match(refusedImport("text"), /is not a bosun session export/);
    assert.match(refusedImport({}), /format:/);
  });

  test("refuses another format version", () => {
    const file = exported();
    store.delete(file.session.id);
    assert.match(refusedImport({ ...file, format: "bosun.session/2" }), /format:/);
  });

  test("refuses missing or mistyped fields", () => {
    const file = exported();
    store.delete(file.session.id);
    const { session, events } = file;
    assert.match(refusedImport({ ...file, session: { ...session, id: "" } }), /session\.id/);
    assert.match(refusedImport({ ...file, session: { ...session, directory: 7 } }), /session\.directory/);
    assert.match(refusedImport({ format: file.format, session }), /events/);
    assert.match(refusedImport({ ...file, events: [{ ...events[0], type: "" }] }), /events\[0\]\.type/);
    assert.match(refusedImport({ ...file, events: [{ ...events[0], seq: 1.5 }] }), /events\[0\]\.seq/);
    assert.match(refusedImport({ ...file, events: [{ ...events[0], seq: "1" }] }), /events\[0\]\.seq/);
  });

  test("refuses events that are not numbered 1..n in order", () => {
    const file = exported();
    store.delete(file.session.id);
    const [e1, e2, e3, e4] = file.events;
    const renumber = (seq: number, e: unknown) => ({ ...(e as object), seq });
    assert.match(
      refusedImport({ ...file, events: [e1, e2, e4] }),
      /events must be numbered 1\.\.n in order; event 3 has seq 4/,
    );
    assert.match(refusedImport({ ...file, events: [e2, e1, e3, e4] }), /event 1 has seq 2/);
    assert.match(refusedImport({ ...file, events: [e1, e2, e2, e3] }), /event 3 has seq 2/);
    assert.match(refusedImport({ ...file, events: [renumber(0, e1)] }), /events\[0\]\.seq/);
    assert.match(refusedImport({ ...file, events: [e1, renumber(3, e2)] }), /event 2 has seq 3/);
  });

  test("refuses an export that does not start with session.created", () => {
    const file = exported();
    store.delete(file.session.id);
    assert.match(refusedImport({ ...file, events: [] }), /first event must be session\.created/);
    const [e1, e2] = file.events;
    const swapped = [
      { ...(e2 as object), seq: 1 },
      { ...(e1 as object), seq: 2 },
    ];
    assert.match(refusedImport({ ...file, events: swapped }), /first event must be session\.created/);
  });

  test("refuses dates that are not dates, even in the last event", () => {
    const file = exported();
    store.delete(file.session.id);
    assert.match(
      refusedImport({ ...file, session: { ...file.session, created: "yesterday" } }),
      /"yesterday" is not a date/,
    );
    const events = file.events.map((e, i) => (i === 3 ? { ...e, at: "not a time" } : e));
    assert.match(refusedImport({ ...file, events }), /"not a time" is not a date/);
  });

  test("refuses loose or zone-less times, which would import differently per machine", () => {
    const file = exported();
    store.delete(file.session.id);
    for (const loose of ["1", "2025", "Jan 2 2025", "2025-01-02", "2025-01-02T03:04:05", "2025-01-02 03:04:05Z"]) {
      assert.match(
        refusedImport({ ...file, session: { ...file.session, updated: loose } }),
        new RegExp(`"${loose}" is not a date \\(ISO 8601 with a zone`),
        loose,
      );
    }
  });

  test("accepts ISO times with an offset and stores the instant they name", () => {
    const file = exported();
    store.delete(file.session.id);
    file.session.created = "2025-01-02T05:04:05.678+02:00";
    file.events[0] = { ...(file.events[0] as SessionExport["events"][number]), at: "2025-01-02T03:04:05Z" };
    const imported = importSession(store, file, "file.json");
    assert.equal(imported.created, Date.UTC(2025, 0, 2, 3, 4, 5, 678));
    assert.equal(store.events(imported.id)[0]?.at, Date.UTC(2025, 0, 2, 3, 4, 5, 0));
  });

  test("refuses an id with spaces in it, which no lookup could ever name", () => {
    const file = exported();
    store.delete(file.session.id);
    assert.match(refusedImport({ ...file, session: { ...file.session, id: "   " } }), /session\.id/);
    assert.match(refusedImport({ ...file, session: { ...file.session, id: ` ${file.session.id}` } }), /session\.id/);
  });
});

describe("importSession: decision events", () => {
  /** The sample export with its decision event (seq 3) replaced by `data`. */
  function withDecision(data: unknown): SessionExport {
    const file = exported();
    store.delete(file.session.id);
    return { ...file, events: file.events.map((e) => (e.seq === 3 ? { ...e, data } : e)) };
  }
  const good = {
    seat: "session.target",
    holder: "person",
    answer: { mode: "resume" },
    reasons: [{ rule: "session given", detail: "x", source: "--session", key: "k", line: 3, decisive: true }],
    subject: { step: 0, call: "c1", more: [1] },
  };

  test("a decision this bosun could have recorded is imported, and `why` can read it back", () => {
    const file = withDecision(good);
    const imported = importSession(store, file, "file.json");
    assert.deepEqual(store.events(imported.id, "decision")[0]?.data, good);
    // Without the optional subject, and with a null answer, it is still a decision.
    store.delete(imported.id);
    const { subject: _, ...bare } = good;
    importSession(store, withDecision({ ...bare, answer: null, reasons: [] }), "file.json");
  });

  test("refuses a decision without the Decision shape, naming the event and the problem", () => {
    const cases: [unknown, string][] = [
      [null, "data: expected object, not null"],
      ["text", "data: expected object, not string"],
      [[good], "data: expected object, not array"],
      [{ ...good, seat: undefined }, "data.seat: missing"],
      [{ ...good, seat: 7 }, "data.seat: expected string, not number"],
      [{ ...good, holder: undefined }, "data.holder: missing"],
      [{ ...good, holder: ["person"] }, "data.holder: expected string, not array"],
      [{ ...good, answer: undefined }, "data.answer: missing"],
      [{ ...good, reasons: undefined }, "data.reasons: missing"],
      [{ ...good, reasons: { rule: "x" } }, "data.reasons: expected array, not object"],
      [{ ...good, reasons: [null] }, "data.reasons[0]: expected object, not null"],
      [{ ...good, reasons: [{ rule: "a" }, { detail: "no rule" }] }, "data.reasons[1].rule: missing"],
      [
        { ...good, reasons: [{ rule: "a", decisive: "yes" }] },
        "data.reasons[0].decisive: expected boolean, not string",
      ],
      [{ ...good, reasons: [{ rule: "a", line: "3" }] }, "data.reasons[0].line: expected number, not string"],
      [{ ...good, reasons: [{ rule: "a", because: "x" }] }, 'data.reasons[0]: Unrecognized key: "because"'],
      [{ ...good, subject: null }, "data.subject: expected object, not null"],
      [{ ...good, subject: "step 1" }, "data.subject: expected object, not string"],
      [{ ...good, subject: { step: "1" } }, "data.subject.step: expected number, not string"],
      [{ ...good, subject: { call: 1 } }, "data.subject.call: expected string, not number"],
    ];
    for (const [data, problem] of cases) {
      assert.equal(refusedImport(withDecision(data)), `file.json: event 3 (decision): ${problem}`, problem);
    }
  });

  test("refuses a decision for a seat the catalog does not declare", () => {
    assert.equal(
      refusedImport(withDecision({ ...good, seat: "made.up" })),
      'file.json: event 3 (decision): data.seat: "made.up" is not a seat this bosun declares (bosun seats lists them)',
    );
  });

  test("refuses a holder the seat does not admit, even a real holder", () => {
    assert.equal(
      refusedImport(withDecision({ ...good, seat: "session.target", holder: "model" })),
      'file.json: event 3 (decision): data.holder: seat session.target cannot be held by "model" (holders: person, code)',
    );
    assert.match(refusedImport(withDecision({ ...good, holder: "root" })), /cannot be held by "root"/);
  });

  test("names the first bad decision when there are several", () => {
    const file = exported();
    store.delete(file.session.id);
    const events = [
      ...file.events,
      { seq: 5, type: "message.notice", data: { text: "fine" }, at: file.session.updated },
      { seq: 6, type: "decision", data: { ...good, holder: "hook" }, at: file.session.updated },
      { seq: 7, type: "decision", data: null, at: file.session.updated },
    ];
    assert.match(
      refusedImport({ ...file, events }),
      /^file\.json: event 6 \(decision\): data\.holder: seat session\.target cannot/,
    );
  });
});

describe("importSession: imports cannot lie", () => {
  /** The sample export, deleted again so it can be imported. */
  function fresh(): SessionExport {
    const file = exported();
    store.delete(file.session.id);
    return file;
  }
  const rows = () =>
    (
      store.db.prepare("SELECT (SELECT COUNT(*) FROM sessions) + (SELECT COUNT(*) FROM events) AS n").get() as {
        n: number;
      }
    ).n;

  test("refuses session ids bosun would never make: ../, absolute, NUL, too long, lowercase, globs", () => {
    const file = fresh();
    const before = rows();
    const ulid = file.session.id;
    for (const id of [
      "../../../../tmp/evil",
      "..",
      "/etc",
      `${ulid.slice(0, 25)}\0`,
      `${ulid}0`,
      ulid.slice(0, 25),
      ulid.toLowerCase(),
      "*".repeat(26),
      `${ulid.slice(0, 24)}/.`,
      "0".repeat(5000),
    ]) {
      const message = refusedImport({ ...file, session: { ...file.session, id } });
      assert.match(message, /session\.id: must be a session id as bosun makes them \(a ULID/, JSON.stringify(id));
    }
    assert.equal(rows(), before);
  });

  test("refuses a parent id that is not one bosun makes, before looking it up", () => {
    const file = fresh();
    for (const parent of ["../x", "../../01JAAAAAAAAAAAAAAAAAAAAAAA", "/01JAAAAAAAAAAAAAAAAAAAAAAA", ""]) {
      assert.match(
        refusedImport({ ...file, session: { ...file.session, parent } }),
        /session\.parent: must be a session id as bosun makes them/,
      );
    }
    // The same rule holds for ids inside the log: the parent named by session.created.
    const events = file.events.map((e) =>
      e.seq === 1 ? { ...e, data: { ...(e.data as object), parent: "../01JAAAAAAAAAAAAAAAAAAAAAAA" } } : e,
    );
    assert.match(
      refusedImport({ ...file, events }),
      /^file\.json: event 1 \(session\.created\): data\.parent: must be a session id as bosun makes them/,
    );
  });

  test("refuses a directory that is not an absolute path, and NUL in names", () => {
    const file = fresh();
    assert.match(
      refusedImport({ ...file, session: { ...file.session, directory: "repo" } }),
      /session\.directory: must be an absolute path/,
    );
    assert.match(
      refusedImport({ ...file, session: { ...file.session, title: "a\0b" } }),
      /session\.title: must not contain a NUL/,
    );
  });

  test("refuses an event type this bosun does not record, naming it", () => {
    const file = fresh();
    const events = [...file.events, { seq: 5, type: "tool.result", data: {}, at: file.session.updated }];
    assert.equal(
      refusedImport({ ...file, events }),
      'file.json: event 5 (tool.result): "tool.result" is not an event type this bosun records',
    );
  });

  test("refuses a huge gap in the numbering", () => {
    const file = fresh();
    const events = [
      ...file.events,
      { seq: 1_000_000_000, type: "message.notice", data: { text: "x" }, at: file.session.updated },
    ];
    assert.match(refusedImport({ ...file, events }), /numbered 1\.\.n in order; event 5 has seq 1000000000/);
  });

  test("refuses toolCalls that are not an array, naming the event and field", () => {
    const file = fresh();
    const assistant = {
      text: "",
      toolCalls: { id: "c1" },
      finish: "tool-calls",
      model: "p/m",
      step: 1,
      status: "complete",
    };
    const events = [...file.events, { seq: 5, type: "message.assistant", data: assistant, at: file.session.updated }];
    assert.equal(
      refusedImport({ ...file, events }),
      "file.json: event 5 (message.assistant): data.toolCalls: expected array, not object",
    );
  });

  test("every event type: valid data imports; each field of the wrong type, or missing, is refused by name", () => {
    const file = fresh();
    const types = Object.keys(EVENT_SCHEMAS).sort();
    assert.deepEqual(Object.keys(VALID).sort(), types, "a valid sample for every event type");
    const at = file.session.updated;
    // Fields whose schema takes any JSON value (what the model wrote; a decision's answer).
    const free = new Set(["decision.answer"]);
    for (const type of types) {
      const data = VALID[type] as Record<string, unknown>;
      const withEvent = (value: unknown) => ({ ...file, events: [...file.events, { seq: 5, type, data: value, at }] });
      const imported = importSession(store, withEvent(data), "file.json");
      assert.deepEqual(store.events(imported.id).at(-1)?.data, data, type);
      store.delete(imported.id);
      for (const whole of [null, 7, "text", [data]]) {
        assert.match(
          refusedImport(withEvent(whole)),
          new RegExp(`^file\\.json: event 5 \\(${type}\\): data: expected object`),
          `${type} = ${JSON.stringify(whole)}`,
        );
      }
      assert.match(
        refusedImport(withEvent({ ...data, surprise: 1 })),
        new RegExp(`event 5 \\(${type}\\): data: Unrecognized key: "surprise"`),
      );
      for (const [key, value] of Object.entries(data)) {
        if (free.has(`${type}.${key}`)) continue;
        const problem = refusedImport(withEvent({ ...data, [key]: wrongType(value) }));
        assert.match(problem, new RegExp(`^file\\.json: event 5 \\(${type}\\): data\\.${key}\\b`), `${type}.${key}`);
        const { [key]: _, ...without } = data;
        // Optional fields may be left out; required ones are named as missing.
        const missing = eventProblem(type, without) === undefined ? undefined : refusedImport(withEvent(without));
        if (missing !== undefined)
          assert.match(missing, new RegExp(`data\\.${key}: missing`), `${type} without ${key}`);
      }
    }
  });
});

/** A value of another JSON type than `value`'s. */
function wrongType(value: unknown): unknown {
  if (typeof value === "string") return 42;
  if (typeof value === "number") return "42";
  if (typeof value === "boolean") return "yes";
  if (value === null) return 42;
  return "text";
}

/** Data bosun records, one sample per event type (schemas.test.ts checks a real run's). */
const VALID: Record<string, unknown> = {
  "session.created": {
    title: "t",
    directory: "/work/repo",
    parent: null,
    forked_from: "01JAAAAAAAAAAAAAAAAAAAAAAA",
    forked_at_seq: 3,
    copied: 2,
  },
  "session.title": { title: "Fix the parser" },
  "message.user": {
    text: "hi",
    files: [{ path: "a.png", content: "", image: { mediaType: "image/png", data: "AA==" } }],
  },
  "message.notice": { text: "env", kind: "instructions", path: "/work/repo/sub/AGENTS.md" },
  "message.assistant": {
    text: "reading",
    toolCalls: [{ id: "c1", name: "read", input: { path: "a" }, invalid: false, error: "x" }],
    finish: "tool-calls",
    model: "p/m",
    step: 1,
    status: "complete",
  },
  "call.started": { id: "c1", name: "read", input: { path: "a" }, step: 1 },
  "call.finished": {
    id: "c1",
    name: "read",
    output: "one",
    isError: false,
    summary: "read a",
    metadata: { lines: 1 },
    images: [{ path: "a.png", mediaType: "image/png", data: "AA==" }],
  },
  "call.interrupted": { id: "c1", name: "shell" },
  "call.cancelled": { id: "c1", name: "shell" },
  "turn.ended": { status: "done", steps: 2, message: "ok" },
  decision: { seat: "turn.done", holder: "code", answer: "done", reasons: [{ rule: "r" }], subject: { step: 1 } },
  "model.usage": { model: "p/m", input: 1, output: 2, cacheRead: 0, cacheWrite: 0, cost: 0.1, for: "session.title" },
  "compaction.checkpoint": {
    summary: "## Goal",
    keptFrom: 4,
    tokensBefore: 100,
    tokensAfter: 10,
    model: "p/m",
    reason: "manual",
  },
  "file.seen": { path: "/work/repo/a", mtimeMs: 1, size: 3, hash: "ab", at: 2 },
  "files.snapshot": { tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", turn: 1, step: 2 },
  "turn.reverted": { turns: [1], tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904" },
  "turn.restored": { turns: [1] },
};
