import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, beforeEach, describe, test } from "node:test";
import { UsageError } from "../errors.js";
import { SessionStore } from "./session-store.js";
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
  store.append(session.id, "message", { role: "user", text: "hi ✓", parts: [{ n: 1 }, { n: null }] });
  clock += 2_002;
  store.append(session.id, "decision", {
    seat: "session.target",
    holder: "code",
    answer: { mode: "new" },
    reasons: [{ rule: "default", decisive: true }],
  });
  clock += 3;
  store.append(session.id, "note", "plain");
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
        [2, "message", "2025-01-02T03:04:06.679Z"],
        [3, "decision", "2025-01-02T03:04:08.681Z"],
        [4, "note", "2025-01-02T03:04:08.684Z"],
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
    assert.match(refusedImport({ ...file, events: [{ ...events[0], type: "" }] }), /events\.0\.type/);
    assert.match(refusedImport({ ...file, events: [{ ...events[0], seq: 1.5 }] }), /events\.0\.seq/);
    assert.match(refusedImport({ ...file, events: [{ ...events[0], seq: "1" }] }), /events\.0\.seq/);
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
    assert.match(refusedImport({ ...file, events: [renumber(0, e1)] }), /events\.0\.seq/);
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
      [null, "data must be an object, not null"],
      ["text", 'data must be an object, not string "text"'],
      [[good], "data must be an object, not an array"],
      [{ ...good, seat: undefined }, "seat must be a string, not missing"],
      [{ ...good, seat: 7 }, "seat must be a string, not number 7"],
      [{ ...good, holder: undefined }, "holder must be a string, not missing"],
      [{ ...good, holder: ["person"] }, "holder must be a string, not an array"],
      [{ ...good, answer: undefined }, "answer is missing"],
      [{ ...good, reasons: undefined }, "reasons must be an array, not missing"],
      [{ ...good, reasons: { rule: "x" } }, "reasons must be an array, not an object"],
      [{ ...good, reasons: [null] }, "reasons[0]: must be an object, not null"],
      [{ ...good, reasons: [{ rule: "a" }, { detail: "no rule" }] }, "reasons[1]: rule must be a string, not missing"],
      [
        { ...good, reasons: [{ rule: "a", decisive: "yes" }] },
        'reasons[0]: decisive must be a boolean, not string "yes"',
      ],
      [{ ...good, reasons: [{ rule: "a", line: "3" }] }, 'reasons[0]: line must be a number, not string "3"'],
      [{ ...good, subject: null }, "subject must be an object when present, not null"],
      [{ ...good, subject: "step 1" }, 'subject must be an object when present, not string "step 1"'],
      [{ ...good, subject: { step: "1" } }, 'subject.step must be a number, not string "1"'],
      [{ ...good, subject: { call: 1 } }, "subject.call must be a string, not number 1"],
    ];
    for (const [data, problem] of cases) {
      assert.equal(refusedImport(withDecision(data)), `file.json: event 3 (decision): ${problem}`, problem);
    }
  });

  test("refuses a decision for a seat the catalog does not declare", () => {
    assert.equal(
      refusedImport(withDecision({ ...good, seat: "made.up" })),
      'file.json: event 3 (decision): seat "made.up" is not a seat this bosun declares (bosun seats lists them)',
    );
  });

  test("refuses a holder the seat does not admit, even a real holder", () => {
    assert.equal(
      refusedImport(withDecision({ ...good, seat: "session.target", holder: "model" })),
      'file.json: event 3 (decision): seat session.target cannot be held by "model" (holders: person, code)',
    );
    assert.match(refusedImport(withDecision({ ...good, holder: "root" })), /cannot be held by "root"/);
  });

  test("names the first bad decision when there are several; other event types are not checked", () => {
    const file = exported();
    store.delete(file.session.id);
    const events = [
      ...file.events,
      { seq: 5, type: "note", data: null, at: file.session.updated },
      { seq: 6, type: "decision", data: { ...good, holder: "hook" }, at: file.session.updated },
      { seq: 7, type: "decision", data: null, at: file.session.updated },
    ];
    assert.match(refusedImport({ ...file, events }), /^file\.json: event 6 \(decision\): seat session\.target cannot/);
  });
});
