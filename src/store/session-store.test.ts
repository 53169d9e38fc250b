import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { SessionStore } from "./session-store.js";

const root = mkdtempSync(join(tmpdir(), "bosun-store-test-"));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** A store on a fresh database with a clock the test moves by hand. */
function fixture(start = 1_700_000_000_000) {
  const clock = { now: start };
  const path = join(root, `store-${++counter}.db`);
  const store = SessionStore.open(path, () => clock.now);
  return { store, clock, path };
}

function count(store: SessionStore, table: "sessions" | "events"): number {
  return (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
}

describe("SessionStore.create", () => {
  test("returns the session and stores it with a session.created event at seq 1", () => {
    const { store, clock } = fixture();
    try {
      const session = store.create({ directory: "/repo", title: "first" });
      assert.match(session.id, /^[0-9A-HJKMNP-TV-Z]{26}$/, "a ULID");
      assert.deepEqual(session, {
        id: session.id,
        title: "first",
        directory: "/repo",
        parentId: null,
        created: clock.now,
        updated: clock.now,
      });
      assert.deepEqual(store.get(session.id), session);
      assert.deepEqual(store.events(session.id), [
        {
          sessionId: session.id,
          seq: 1,
          type: "session.created",
          data: { title: "first", directory: "/repo", parent: null },
          at: clock.now,
        },
      ]);
    } finally {
      store.close();
    }
  });

  test("defaults to an empty title, keeps a parent and merges details into the created event", () => {
    const { store } = fixture();
    try {
      const parent = store.create({ directory: "/repo" });
      const child = store.create({ directory: "/repo", parentId: parent.id, details: { forked_from: parent.id } });
      assert.equal(parent.title, "");
      assert.equal(child.parentId, parent.id);
      assert.equal(store.get(child.id)?.parentId, parent.id);
      assert.deepEqual(store.events(child.id)[0]?.data, {
        title: "",
        directory: "/repo",
        parent: parent.id,
        forked_from: parent.id,
      });
    } finally {
      store.close();
    }
  });

  test("ids are unique and sort in creation order, even within one millisecond", () => {
    const { store } = fixture();
    try {
      const ids = Array.from({ length: 50 }, () => store.create({ directory: "/repo" }).id);
      assert.equal(new Set(ids).size, 50);
      assert.deepEqual([...ids].sort(), ids);
    } finally {
      store.close();
    }
  });
});

describe("SessionStore.append and events", () => {
  test("numbers events 1..n in append order and round-trips their data", () => {
    const { store, clock } = fixture();
    try {
      const s = store.create({ directory: "/repo" });
      const payloads: unknown[] = [
        { text: "héllo ✓ 🚢", nested: { list: [1, 2.5, -3], flag: true, none: null } },
        "a plain string",
        42,
        null,
        [],
      ];
      const appended = payloads.map((data, i) => {
        clock.now += 10;
        return store.append(s.id, `t${i}`, data);
      });
      assert.deepEqual(
        appended.map((e) => e.seq),
        [2, 3, 4, 5, 6],
      );
      const events = store.events(s.id);
      assert.deepEqual(
        events.map((e) => e.seq),
        [1, 2, 3, 4, 5, 6],
      );
      assert.deepEqual(
        events.slice(1).map((e) => e.data),
        payloads,
      );
      assert.deepEqual(
        events.slice(1).map((e) => e.type),
        ["t0", "t1", "t2", "t3", "t4"],
      );
      assert.deepEqual(events.slice(1), appended, "what append returns is what is stored");
    } finally {
      store.close();
    }
  });

  test("undefined data is stored as null", () => {
    const { store } = fixture();
    try {
      const s = store.create({ directory: "/repo" });
      store.append(s.id, "empty", undefined);
      assert.equal(store.events(s.id, "empty")[0]?.data, null);
    } finally {
      store.close();
    }
  });

  test("bumps the session's updated time, not its created time", () => {
    const { store, clock } = fixture();
    try {
      const s = store.create({ directory: "/repo" });
      clock.now += 5_000;
      const event = store.append(s.id, "note", {});
      assert.equal(event.at, clock.now);
      assert.equal(store.get(s.id)?.updated, clock.now);
      assert.equal(store.get(s.id)?.created, s.created);
    } finally {
      store.close();
    }
  });

  test("a clock that steps back never moves a session's updated time backwards", () => {
    const { store, clock } = fixture();
    try {
      const s = store.create({ directory: "/repo" });
      clock.now += 1_000;
      store.append(s.id, "note", { n: 1 });
      const latest = clock.now;
      clock.now -= 60_000;
      store.append(s.id, "note", { n: 2 });
      assert.equal(store.get(s.id)?.updated, latest);
    } finally {
      store.close();
    }
  });

  test("sequences are per session", () => {
    const { store } = fixture();
    try {
      const a = store.create({ directory: "/repo" });
      const b = store.create({ directory: "/repo" });
      store.append(a.id, "x", 1);
      store.append(a.id, "x", 2);
      assert.equal(store.append(b.id, "x", 1).seq, 2);
      assert.equal(store.append(a.id, "x", 3).seq, 4);
    } finally {
      store.close();
    }
  });

  test("appending to a session that does not exist throws and writes nothing", () => {
    const { store } = fixture();
    try {
      store.create({ directory: "/repo" });
      const before = { sessions: count(store, "sessions"), events: count(store, "events") };
      assert.throws(() => store.append("01NOSUCHSESSION0000000000", "x", {}), /no session 01NOSUCHSESSION/);
      assert.deepEqual({ sessions: count(store, "sessions"), events: count(store, "events") }, before);
      assert.deepEqual(store.events("01NOSUCHSESSION0000000000"), []);
    } finally {
      store.close();
    }
  });

  test("events(id, type) filters by type and keeps seq order", () => {
    const { store } = fixture();
    try {
      const s = store.create({ directory: "/repo" });
      store.append(s.id, "a", 1);
      store.append(s.id, "b", 2);
      store.append(s.id, "a", 3);
      assert.deepEqual(
        store.events(s.id, "a").map((e) => [e.seq, e.data]),
        [
          [2, 1],
          [4, 3],
        ],
      );
      assert.deepEqual(store.events(s.id, "nothing"), []);
    } finally {
      store.close();
    }
  });

  test("setTitle records a session.title event and updates the projection", () => {
    const { store, clock } = fixture();
    try {
      const s = store.create({ directory: "/repo", title: "old" });
      clock.now += 1;
      store.setTitle(s.id, "new");
      assert.equal(store.get(s.id)?.title, "new");
      assert.deepEqual(
        store.events(s.id, "session.title").map((e) => e.data),
        [{ title: "new" }],
      );
    } finally {
      store.close();
    }
  });

  test("what is appended survives closing and reopening the database", () => {
    const { store, path } = fixture();
    const s = store.create({ directory: "/repo", title: "durable" });
    store.append(s.id, "note", { keep: "me" });
    const before = store.events(s.id);
    store.close();
    const reopened = SessionStore.open(path);
    try {
      assert.deepEqual(reopened.events(s.id), before);
      assert.equal(reopened.get(s.id)?.title, "durable");
    } finally {
      reopened.close();
    }
  });
});

describe("SessionStore.list", () => {
  test("is newest first by last update, not by creation", () => {
    const { store, clock } = fixture();
    try {
      const a = store.create({ directory: "/repo", title: "a" });
      clock.now += 1_000;
      const b = store.create({ directory: "/repo", title: "b" });
      clock.now += 1_000;
      const c = store.create({ directory: "/repo", title: "c" });
      assert.deepEqual(
        store.list().map((s) => s.title),
        ["c", "b", "a"],
      );
      clock.now += 1_000;
      store.append(a.id, "note", {});
      assert.deepEqual(
        store.list().map((s) => s.id),
        [a.id, c.id, b.id],
      );
      assert.equal(store.list()[0]?.updated, clock.now);
    } finally {
      store.close();
    }
  });

  test("sessions updated in the same millisecond list the newest created first", () => {
    const { store } = fixture();
    try {
      const ids = Array.from({ length: 5 }, (_, i) => store.create({ directory: "/repo", title: `s${i}` }).id);
      assert.deepEqual(
        store.list().map((s) => s.id),
        [...ids].reverse(),
      );
    } finally {
      store.close();
    }
  });

  test("filters by the exact directory", () => {
    const { store, clock } = fixture();
    try {
      const here1 = store.create({ directory: "/work/repo" });
      clock.now += 1;
      store.create({ directory: "/work/other" });
      clock.now += 1;
      store.create({ directory: "/work/repo/sub" });
      clock.now += 1;
      const here2 = store.create({ directory: "/work/repo" });
      assert.deepEqual(
        store.list("/work/repo").map((s) => s.id),
        [here2.id, here1.id],
      );
      assert.deepEqual(store.list("/nowhere"), []);
      assert.equal(store.list().length, 4);
    } finally {
      store.close();
    }
  });

  test("an empty database lists nothing and get() finds nothing", () => {
    const { store } = fixture();
    try {
      assert.deepEqual(store.list(), []);
      assert.equal(store.get("01ANYTHING"), undefined);
    } finally {
      store.close();
    }
  });
});

describe("SessionStore.children and firstEvent", () => {
  test("children are the sessions naming this parent, oldest first; firstEvent is the first of its type", () => {
    const { store, clock } = fixture();
    try {
      const parent = store.create({ directory: "/repo" });
      clock.now += 10;
      const a = store.create({ directory: "/repo", parentId: parent.id, details: { forked_from: parent.id } });
      const b = store.create({ directory: "/elsewhere", parentId: parent.id });
      store.create({ directory: "/repo", parentId: a.id });
      clock.now += 10;
      // A later update does not reorder them: the order is the order they were started.
      store.append(a.id, "note", { n: 1 });
      store.append(a.id, "note", { n: 2 });
      assert.deepEqual(
        store.children(parent.id).map((s) => s.id),
        [a.id, b.id],
      );
      assert.deepEqual(store.children(b.id), []);
      assert.deepEqual(store.firstEvent(a.id, "session.created")?.data, {
        title: "",
        directory: "/repo",
        parent: parent.id,
        forked_from: parent.id,
      });
      assert.equal(store.firstEvent(a.id, "note")?.seq, 2);
      assert.equal(store.firstEvent(a.id, "turn.ended"), undefined);
    } finally {
      store.close();
    }
  });
});

describe("SessionStore.delete", () => {
  test("removes the session and all its events, and nothing else", () => {
    const { store } = fixture();
    try {
      const gone = store.create({ directory: "/repo" });
      const kept = store.create({ directory: "/repo" });
      store.append(gone.id, "x", 1);
      store.append(kept.id, "x", 1);
      assert.equal(store.delete(gone.id), true);
      assert.equal(store.get(gone.id), undefined);
      assert.deepEqual(store.events(gone.id), []);
      assert.deepEqual(
        store.list().map((s) => s.id),
        [kept.id],
      );
      assert.equal(store.events(kept.id).length, 2);
      assert.equal(count(store, "events"), 2);
    } finally {
      store.close();
    }
  });

  test("returns false when there is no such session", () => {
    const { store } = fixture();
    try {
      assert.equal(store.delete("01NOPE"), false);
    } finally {
      store.close();
    }
  });
});

describe("SessionStore.atomically", () => {
  test("commits everything the function wrote and returns its value", () => {
    const { store } = fixture();
    try {
      const id = store.atomically(() => {
        const s = store.create({ directory: "/repo" });
        store.append(s.id, "x", 1);
        return s.id;
      });
      assert.equal(store.events(id).length, 2);
    } finally {
      store.close();
    }
  });

  test("a throw rolls back every create and append made inside it", () => {
    const { store } = fixture();
    try {
      const existing = store.create({ directory: "/repo" });
      let createdInside = "";
      assert.throws(
        () =>
          store.atomically(() => {
            createdInside = store.create({ directory: "/repo" }).id;
            store.append(createdInside, "x", 1);
            store.append(existing.id, "x", 1);
            throw new Error("half-way");
          }),
        /half-way/,
      );
      assert.notEqual(createdInside, "");
      assert.equal(store.get(createdInside), undefined);
      assert.deepEqual(
        store.events(existing.id).map((e) => e.seq),
        [1],
      );
      assert.equal(store.get(existing.id)?.updated, existing.updated);
      assert.equal(count(store, "sessions"), 1);
      assert.equal(count(store, "events"), 1);
    } finally {
      store.close();
    }
  });
});

describe("SessionStore.insertWhole", () => {
  const session = (id: string) => ({
    id,
    title: "imported",
    directory: "/elsewhere",
    parentId: null,
    created: 1_000,
    updated: 5_000,
  });

  test("writes the session and its events exactly as given", () => {
    const { store } = fixture();
    try {
      const events = [
        { seq: 1, type: "session.created", data: { title: "imported" }, at: 1_000 },
        { seq: 2, type: "note", data: { n: [1, 2] }, at: 3_000 },
        { seq: 3, type: "note", data: "x", at: 5_000 },
      ];
      store.insertWhole(session("01WHOLE"), events);
      assert.deepEqual(store.get("01WHOLE"), session("01WHOLE"));
      assert.deepEqual(
        store.events("01WHOLE"),
        events.map((e) => ({ sessionId: "01WHOLE", ...e })),
      );
      // The log continues where the inserted one ended.
      assert.equal(store.append("01WHOLE", "next", null).seq, 4);
    } finally {
      store.close();
    }
  });

  test("failing half-way (a duplicate seq) leaves no partial session behind", () => {
    const { store } = fixture();
    try {
      const other = store.create({ directory: "/repo" });
      const events = [
        { seq: 1, type: "session.created", data: {}, at: 1_000 },
        { seq: 2, type: "note", data: 1, at: 2_000 },
        { seq: 3, type: "note", data: 2, at: 3_000 },
        { seq: 2, type: "note", data: "duplicate", at: 4_000 },
        { seq: 4, type: "note", data: 3, at: 5_000 },
      ];
      assert.throws(() => store.insertWhole(session("01PARTIAL"), events), /UNIQUE|PRIMARY KEY/);
      assert.equal(store.get("01PARTIAL"), undefined);
      assert.deepEqual(store.events("01PARTIAL"), []);
      assert.deepEqual(
        store.list().map((s) => s.id),
        [other.id],
      );
      assert.equal(count(store, "events"), 1);
      // And the id is free to be written properly afterwards.
      store.insertWhole(session("01PARTIAL"), events.slice(0, 3));
      assert.equal(store.events("01PARTIAL").length, 3);
    } finally {
      store.close();
    }
  });

  test("an id that already exists is refused and the existing session is untouched", () => {
    const { store } = fixture();
    try {
      store.insertWhole(session("01TAKEN"), [{ seq: 1, type: "session.created", data: { v: "original" }, at: 1 }]);
      assert.throws(() =>
        store.insertWhole({ ...session("01TAKEN"), title: "intruder" }, [
          { seq: 1, type: "session.created", data: { v: "intruder" }, at: 2 },
          { seq: 2, type: "note", data: {}, at: 3 },
        ]),
      );
      assert.equal(store.get("01TAKEN")?.title, "imported");
      assert.deepEqual(
        store.events("01TAKEN").map((e) => e.data),
        [{ v: "original" }],
      );
    } finally {
      store.close();
    }
  });
});
