import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CHECKPOINT_EVENT } from "../compaction/checkpoint.js";
import { bangMessage } from "../input/bang.js";
import { recordDecision } from "../seats/record.js";
import { EV } from "../session/events.js";
import { forkSession } from "../session/open.js";
import { USAGE_EVENT } from "../session/usage.js";
import { SessionStore } from "../store/session-store.js";
import { bangOf, EARLIER, firstWords, PAST_TYPES, pastItems, readPast, SUMMARISED } from "./past.js";

const root = mkdtempSync(join(tmpdir(), "bosun-past-test-"));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

function fresh() {
  const store = SessionStore.open(join(root, `past-${++counter}.db`));
  const session = store.create({ directory: "/repo", title: "past" });
  return { store, id: session.id };
}

type Call = { id: string; name: string; input: Record<string, unknown>; summary: string; isError?: boolean };

/**
 * One turn as the loop writes it (loop/turn.ts): the environment note and the message, a decision,
 * each step's assistant message with its calls (call.started, decisions, call.finished, usage),
 * the closing text and `turn.ended`.
 */
function turn(store: SessionStore, id: string, text: string, steps: Call[][] = [], reply = `done: ${text}`) {
  store.append(id, EV.notice, { text: "working directory: /repo", kind: "environment" });
  store.append(id, EV.user, { text });
  recordDecision(store, id, { seat: "context.tools", holder: "code", answer: ["read"], reasons: [] });
  steps.forEach((calls, index) => {
    const step = index + 1;
    store.append(id, EV.assistant, {
      text: step === 1 ? "Looking." : "",
      toolCalls: calls.map(({ id, name, input }) => ({ id, name, input })),
      finish: "tool-calls",
      model: "scripted/test",
      step,
      status: "complete",
    });
    store.append(id, USAGE_EVENT, { model: "scripted/test", input: 10, output: 5, cacheRead: 0, cacheWrite: 0 });
    for (const call of calls) {
      store.append(id, EV.callStarted, { id: call.id, name: call.name, input: call.input, step });
      recordDecision(store, id, {
        seat: "call.permission",
        holder: "code",
        answer: "allow",
        reasons: [],
        subject: { step, call: call.id },
      });
      store.append(id, EV.callFinished, {
        id: call.id,
        name: call.name,
        output: "OUTPUT ".repeat(50),
        isError: call.isError ?? false,
        summary: call.summary,
      });
    }
  });
  store.append(id, EV.assistant, {
    text: reply,
    toolCalls: [],
    finish: "stop",
    model: "scripted/test",
    step: steps.length + 1,
    status: "complete",
  });
  store.append(id, EV.turnEnded, { status: "done", steps: steps.length + 1 });
}

const shell = (id: string, command: string, exit = 0): Call => ({
  id,
  name: "shell",
  input: { command },
  summary: `shell \`${command}\` → exit ${exit} (0.1s)`,
  isError: exit !== 0,
});

describe("the past of a resumed session", () => {
  it("redraws a short session whole: messages, text, one line per call with its result, !cmd runs", () => {
    const { store, id } = fresh();
    turn(store, id, "run the tests", [[shell("c1", "npm test", 1)], [shell("c2", "npm test")]], "All green now.");
    store.append(id, EV.notice, {
      text: bangMessage("ls", { output: "a.txt\nb.txt\n", exitCode: 0 }),
    });
    turn(store, id, "read it", [
      [{ id: "r1", name: "read", input: { path: "src/a.ts" }, summary: "read src/a.ts (120 lines)" }],
    ]);
    const items = readPast(store, id);
    assert.deepEqual(items, [
      { kind: "user", text: "run the tests" },
      { kind: "assistant", text: "Looking." },
      {
        kind: "tool",
        id: "c1",
        name: "shell",
        title: "shell npm test",
        status: "error",
        summary: "shell `npm test` → exit 1 (0.1s)",
      },
      {
        kind: "tool",
        id: "c2",
        name: "shell",
        title: "shell npm test",
        status: "done",
        summary: "shell `npm test` → exit 0 (0.1s)",
      },
      { kind: "assistant", text: "All green now." },
      { kind: "shell", command: "ls", output: "a.txt\nb.txt", exitCode: 0 },
      { kind: "user", text: "read it" },
      { kind: "assistant", text: "Looking." },
      {
        kind: "tool",
        id: "r1",
        name: "read",
        title: "read src/a.ts",
        status: "done",
        summary: "read src/a.ts (120 lines)",
      },
      { kind: "assistant", text: "done: read it" },
    ]);
    store.close();
  });

  it("leaves an undone turn out, and shows it again once redone", () => {
    const { store, id } = fresh();
    turn(store, id, "first task", []);
    turn(store, id, "second task", []);
    turn(store, id, "third task", []);
    const users = () =>
      readPast(store, id)
        .filter((item) => item.kind === "user")
        .map((item) => ("text" in item ? item.text : ""));
    assert.deepEqual(users(), ["first task", "second task", "third task"]);
    store.append(id, "turn.reverted", { turns: [2, 3] });
    assert.deepEqual(users(), ["first task"]);
    store.append(id, "turn.restored", { turns: [2] });
    assert.deepEqual(users(), ["first task", "second task"]);
    store.close();
  });

  it("shows the last turns in full and the older ones one line each, with how many came before", () => {
    const { store, id } = fresh();
    for (let n = 1; n <= 20; n++) {
      turn(store, id, `task number ${n} with a fairly long description of what to do next`, [
        [shell(`a${n}`, "true"), shell(`b${n}`, "true")],
      ]);
    }
    const items = readPast(store, id, { full: 3, folded: 4 });
    const lines = items.map(
      (item) =>
        `${item.kind}: ${"text" in item ? item.text : item.kind === "tool" ? item.title : item.kind === "shell" ? item.command : ""}`,
    );
    assert.deepEqual(lines.slice(0, 5), [
      `notice: ${EARLIER}`,
      "notice: › task number 14 with a fairly long description of what to do… · 2 calls → done: task number 14 with a fairly long…",
      "notice: › task number 15 with a fairly long description of what to do… · 2 calls → done: task number 15 with a fairly long…",
      "notice: › task number 16 with a fairly long description of what to do… · 2 calls → done: task number 16 with a fairly long…",
      "notice: › task number 17 with a fairly long description of what to do… · 2 calls → done: task number 17 with a fairly long…",
    ]);
    assert.equal(lines[5], "user: task number 18 with a fairly long description of what to do next");
    assert.equal(items.filter((item) => item.kind === "user").length, 3, "three turns in full");
    assert.equal(items.filter((item) => item.kind === "tool").length, 6);
    assert.equal(lines.at(-1), "assistant: done: task number 20 with a fairly long description of what to do next");
    store.close();
  });

  it("reads only the last turns' conversation events, however long the session", () => {
    const { store, id } = fresh();
    for (let n = 1; n <= 60; n++) turn(store, id, `turn ${n}`, [[shell(`c${n}`, "true")]]);
    const read: number[] = [];
    const eventsAfter = store.eventsAfter.bind(store);
    store.eventsAfter = (session, seq, types) => {
      const events = eventsAfter(session, seq, types);
      read.push(events.length);
      return events;
    };
    const items = readPast(store, id, { full: 3, folded: 10 });
    // Per turn: environment, message, two assistant messages, one result, turn.ended (no decisions, no usage).
    assert.deepEqual(read, [13 * 6]);
    assert.deepEqual(items[0], { kind: "notice", text: EARLIER }, "a line says more came before");
    assert.deepEqual(items[1], { kind: "notice", text: "› turn 48 · 1 call → done: turn 48" });
    assert.ok(PAST_TYPES.every((type) => type !== USAGE_EVENT && type !== "decision"));
    store.close();
  });

  it("marks a compaction where it happened, in a full turn and in a folded one", () => {
    const { store, id } = fresh();
    turn(store, id, "first");
    store.append(id, CHECKPOINT_EVENT, {
      summary: "## Goal\nx",
      keptFrom: 1,
      tokensBefore: 900,
      tokensAfter: 100,
      model: "scripted/test",
      reason: "manual",
    });
    turn(store, id, "second");
    const full = readPast(store, id);
    assert.deepEqual(full.map((item) => item.kind === "notice" && item.text).filter(Boolean), [SUMMARISED]);
    const index = full.findIndex((item) => item.kind === "notice");
    assert.deepEqual(full[index + 1], { kind: "user", text: "second" }, "before the message that followed it");
    turn(store, id, "third");
    turn(store, id, "fourth");
    const folded = readPast(store, id, { full: 2 });
    assert.deepEqual(folded.slice(0, 4), [
      { kind: "notice", text: "› first → done: first" },
      { kind: "notice", text: SUMMARISED },
      { kind: "notice", text: "› second → done: second" },
      { kind: "user", text: "third" },
    ]);
    store.close();
  });

  it("says how a turn that did not finish ended, and never leaves a call running", () => {
    const { store, id } = fresh();
    store.append(id, EV.user, { text: "edit it" });
    store.append(id, EV.assistant, {
      text: "",
      toolCalls: [
        { id: "e1", name: "edit", input: { path: "a.ts", old_string: "x", new_string: "y" } },
        { id: "e2", name: "shell", input: { command: "sleep 30" } },
        { id: "e3", name: "read", input: { path: "b.ts" } },
      ],
      finish: "tool-calls",
      model: "scripted/test",
      step: 1,
      status: "complete",
    });
    store.append(id, EV.callFinished, {
      id: "e1",
      name: "edit",
      output: "no match",
      isError: true,
      summary: "edit a.ts (no match)",
    });
    store.append(id, EV.callCancelled, { id: "e2", name: "shell" });
    store.append(id, EV.turnEnded, { status: "cancelled", steps: 1 });
    store.append(id, EV.user, { text: "go on" });
    store.append(id, EV.turnEnded, { status: "limit", steps: 0, message: "stopped: the turn reached its limit" });
    const items = readPast(store, id);
    const tools = items.flatMap((item) => (item.kind === "tool" ? [[item.status, item.summary]] : []));
    assert.deepEqual(tools, [
      ["error", "edit a.ts (no match)"],
      ["error", "shell: cancelled"],
      ["error", "no result recorded"],
    ]);
    assert.deepEqual(
      items.filter((item) => item.kind === "notice"),
      [
        { kind: "notice", text: "interrupted" },
        { kind: "notice", text: "stopped: the turn reached its limit" },
      ],
    );
    store.close();
  });

  it("a !cmd between turns is no turn of its own: it goes with the message after it, or the last turn", () => {
    const { store, id } = fresh();
    const bang = (command: string) =>
      store.append(id, EV.notice, { text: bangMessage(command, { output: `${command} out`, exitCode: 0 }) });
    turn(store, id, "one");
    bang("before-two");
    turn(store, id, "two");
    bang("after-two");
    const full = readPast(store, id, { full: 1 });
    assert.deepEqual(full, [
      { kind: "notice", text: "› one → done: one" },
      { kind: "shell", command: "before-two", output: "before-two out", exitCode: 0 },
      { kind: "user", text: "two" },
      { kind: "assistant", text: "done: two" },
      { kind: "shell", command: "after-two", output: "after-two out", exitCode: 0 },
    ]);
    assert.deepEqual(readPast(store, id, { full: 0 }), [
      { kind: "notice", text: "› one → done: one" },
      { kind: "notice", text: "› two · ! before-two · ! after-two → done: two" },
    ]);
    store.close();
  });

  it("a fork shows the past it copied, as its original does", () => {
    const { store, id } = fresh();
    turn(store, id, "before the fork", [[shell("c1", "npm test")]]);
    const fork = forkSession(store, id, "/repo");
    assert.deepEqual(readPast(store, fork.id), readPast(store, id));
    assert.equal(readPast(store, fork.id).filter((item) => item.kind === "tool").length, 1);
    store.close();
  });

  it("names the files attached to a message (-f) that it does not name itself", () => {
    const { store, id } = fresh();
    store.append(id, EV.user, {
      text: "compare @a.txt",
      files: [
        { path: "a.txt", content: "A" },
        { path: "b.txt", content: "B" },
      ],
    });
    store.append(id, EV.turnEnded, { status: "done", steps: 1 });
    assert.deepEqual(readPast(store, id), [{ kind: "user", text: "compare @a.txt @b.txt" }]);
    store.close();
  });

  it("a new session has no past", () => {
    const { store, id } = fresh();
    assert.deepEqual(readPast(store, id), []);
    store.append(id, EV.notice, { text: "working directory: /repo", kind: "environment" });
    assert.deepEqual(pastItems(store.events(id)), []);
    store.close();
  });
});

describe("a !cmd in the journal", () => {
  it("reads back what bangMessage wrote, inline and fenced; bosun's other notes are not one", () => {
    const result = { output: "hi\n", exitCode: 2 };
    assert.deepEqual(bangOf({ text: bangMessage("echo hi; exit 2", result) }), {
      command: "echo hi; exit 2",
      output: "hi",
      exitCode: 2,
    });
    assert.deepEqual(bangOf({ text: bangMessage("echo `date`\nls", { output: "", exitCode: 0 }) }), {
      command: "echo `date`\nls",
      output: "",
      exitCode: 0,
    });
    assert.equal(
      bangOf({ text: "Background job j1 (`sleep 1`) finished with exit code 0. Output tail:\n" }),
      undefined,
    );
    assert.equal(bangOf({ text: bangMessage("ls", result), kind: "environment" }), undefined);
  });
  it("firstWords cuts at a word", () => {
    assert.equal(firstWords("fix   the\nfailing test"), "fix the failing test");
    assert.equal(firstWords("one two three four", 10), "one two…");
  });

  it("a call the model wrote in its text is shown as the call, not as its text; the journal keeps the text", () => {
    const { store, id } = fresh();
    store.append(id, EV.user, { text: "read it" });
    const raw = 'Reading.\n<tool_call>{"name": "read", "arguments": {"path": "a.txt"}}</tool_call>';
    store.append(id, EV.assistant, {
      text: raw,
      toolCalls: [{ id: "textcall_1_1", name: "read", input: { path: "a.txt" } }],
      finish: "stop",
      model: "scripted/test",
      step: 1,
      status: "complete",
    });
    store.append(id, EV.callFinished, {
      id: "textcall_1_1",
      name: "read",
      output: "a",
      isError: false,
      summary: "read a.txt (1 line)",
    });
    store.append(id, EV.turnEnded, { status: "done", steps: 1 });
    const items = readPast(store, id);
    assert.deepEqual(
      items.filter((item) => item.kind === "assistant"),
      [{ kind: "assistant", text: "Reading." }],
    );
    assert.ok(items.some((item) => item.kind === "tool" && item.id === "textcall_1_1" && item.status === "done"));
    assert.match(JSON.stringify(store.events(id)), /<tool_call>/);
  });
});
