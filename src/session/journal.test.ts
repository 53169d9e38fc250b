import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, beforeEach, describe, test } from "node:test";
import { UsageError } from "../errors.js";
import { SessionStore } from "../store/session-store.js";
import { EV, type EventMap, type Notice } from "./events.js";
import { isEvent, isEventOf, type JournalEvent, journalEvents, sqliteJournal, type TypedEvent } from "./journal.js";
import { eventProblem } from "./schemas.js";
import { exportSession, importSession } from "./transfer.js";

const root = mkdtempSync(join(tmpdir(), "bosun-journal-test-"));
after(() => rmSync(root, { recursive: true, force: true }));
let store: SessionStore;
let counter = 0;

beforeEach(() => {
  store = SessionStore.open(join(root, `journal-${++counter}.db`));
});
afterEach(() => store.close());

describe("the typed journal (session/journal.ts)", () => {
  test("an append of data that is not its type's shape does not compile, and a checking journal refuses it", () => {
    const session = store.create({ directory: "/work/repo" });
    const journal = sqliteJournal(store, session.id, { check: eventProblem });
    const wrong = () =>
      // @ts-expect-error — a tool call's input is an object, not text (schemas.ts callStarted).
      journal.append(EV.callStarted, { id: "c1", name: "read", input: "a.txt", step: 1 });
    assert.throws(wrong, /call\.started: data\.input: expected object, not string/);
    // @ts-expect-error — not an event type bosun records.
    assert.throws(() => journal.append("message.shout", { text: "hi" }), /"message\.shout" is not an event type/);
    // Nothing of either was stored: the log is its creation alone.
    assert.deepEqual(
      journal.events().map((event) => event.type),
      ["session.created"],
    );
    // The same data the type refuses, the schema the type is inferred from refuses at run time.
    assert.equal(
      eventProblem(EV.callStarted, { id: "c1", name: "read", input: "a.txt", step: 1 }),
      "data.input: expected object, not string",
    );
  });

  test("the event types are the schemas' own: a field the schema does not know does not compile", () => {
    // @ts-expect-error — a notice's kind is "environment" or "instructions" (schemas.ts notice).
    const notice: Notice = { text: "x", kind: "reminder" };
    assert.match(eventProblem(EV.notice, notice) ?? "", /^data\.kind: /);
    // @ts-expect-error — a turn's end has no `reason` (strict: a key bosun never writes is refused).
    const ended: EventMap["turn.ended"] = { status: "done", steps: 1, reason: "x" };
    assert.equal(eventProblem(EV.turnEnded, ended), 'data: Unrecognized key: "reason"');
  });

  test("a read by type gives that type's data; appends come back typed, in seq order", () => {
    const session = store.create({ directory: "/work/repo", title: "typed" });
    const journal = sqliteJournal(store, session.id, { check: eventProblem });
    const user = journal.append(EV.user, { text: "fix add", files: [{ path: "a.js", content: "x" }] });
    journal.append(EV.assistant, {
      text: "",
      toolCalls: [{ id: "c1", name: "read", input: { path: "a.js" } }],
      finish: "tool-calls",
      model: "scripted/test",
      step: 1,
      status: "complete",
    });
    journal.append(EV.callStarted, { id: "c1", name: "read", input: { path: "a.js" }, step: 1 });
    journal.append(EV.callFinished, { id: "c1", name: "read", output: "x", isError: false, summary: "read a.js" });
    journal.append(EV.turnEnded, { status: "done", steps: 1 });
    assert.equal(user.type, EV.user);
    assert.equal(user.data.text, "fix add");

    const [message] = journal.events(EV.user);
    // Typed: `files` is the schema's array, read without a cast.
    assert.deepEqual(
      message?.data.files?.map((file) => file.path),
      ["a.js"],
    );
    const [answer] = journal.events(EV.assistant);
    assert.deepEqual(
      answer?.data.toolCalls.map((call) => [call.id, call.name]),
      [["c1", "read"]],
    );
    assert.equal(journal.events("session.created")[0]?.data.title, "typed");
    const finished = journal.eventsAfter(0, [EV.callFinished, EV.turnEnded]);
    assert.deepEqual(
      finished.map((event) => [event.seq, event.type]),
      [
        [5, EV.callFinished],
        [6, EV.turnEnded],
      ],
    );
    assert.equal(journal.latestSeq(EV.user), 2);
    assert.deepEqual(
      journal.eventsSince(4).map((event) => event.seq),
      [5, 6],
    );
  });

  test("a mixed list narrows by type: isEvent on stored events, a switch on journal events", () => {
    const session = store.create({ directory: "/work/repo" });
    const journal = sqliteJournal(store, session.id);
    journal.append(EV.notice, { text: "the environment", kind: "environment" });
    journal.append(EV.user, { text: "hi" });
    journal.append(EV.callInterrupted, { id: "c1", name: "shell" });
    journal.append(EV.callCancelled, { id: "c2", name: "read" });

    // Untyped, as the generic store gives them.
    const stored = store.events(session.id);
    const notices = stored.filter((event) => isEvent(event, EV.notice)).map((event) => event.data.kind);
    assert.deepEqual(notices, ["environment"]);
    const settled: TypedEvent<typeof EV.callInterrupted | typeof EV.callCancelled>[] = stored.filter((event) =>
      isEventOf(event, [EV.callInterrupted, EV.callCancelled]),
    );
    assert.deepEqual(
      settled.map((event) => event.data.id),
      ["c1", "c2"],
    );

    const described = journalEvents(stored).map((event: JournalEvent) => {
      switch (event.type) {
        case EV.user:
          return `user: ${event.data.text}`;
        case EV.notice:
          return `notice (${event.data.kind ?? "plain"})`;
        case EV.callInterrupted:
        case EV.callCancelled:
          return `${event.type}: ${event.data.name}`;
        default:
          return event.type;
      }
    });
    assert.deepEqual(described, [
      "session.created",
      "notice (environment)",
      "user: hi",
      "call.interrupted: shell",
      "call.cancelled: read",
    ]);
  });

  test("an import with a malformed event is refused, naming the event, and writes nothing", () => {
    const session = store.create({ directory: "/work/repo", title: "to move" });
    const journal = sqliteJournal(store, session.id);
    journal.append(EV.user, { text: "hi" });
    journal.append(EV.turnEnded, { status: "done", steps: 0 });
    const exported = exportSession(store, store.get(session.id) ?? assert.fail("no session"));
    store.delete(session.id);

    // What the types refuse to append, an import may not bring either: the same schemas.
    const malformed = structuredClone(exported);
    const ended = malformed.events[2] ?? assert.fail("no third event");
    ended.data = { status: "finished", steps: 0 };
    assert.throws(
      () => importSession(store, malformed, "moved.json"),
      (error: unknown) =>
        error instanceof UsageError &&
        /^moved\.json: event 3 \(turn\.ended\): data\.status: /.test(error.message) &&
        error.exitCode === 2,
    );
    assert.equal(store.get(session.id), undefined, "nothing written");

    // The export as it was imports back, typed for its readers.
    importSession(store, exported, "moved.json");
    assert.equal(sqliteJournal(store, session.id).events(EV.turnEnded)[0]?.data.status, "done");
  });
});
