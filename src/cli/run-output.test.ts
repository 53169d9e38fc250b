import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { checkedStream, STREAM_SCHEMA_PATH } from "../../test/support/run-stream.js";
import { HOLDERS, type RecordedDecision } from "../contracts/decisions.js";
import { MODE_NAMES } from "../contracts/modes.js";
import { UsageError } from "../errors.js";
import type { RunEvent } from "../loop/turn.js";
import { ERROR_CLASSES } from "../model/errors.js";
import { jsonPrinter, type RunStart } from "./run-output.js";

const start: RunStart = {
  session: "01SESSION",
  opened: { mode: "fork", parent: "01PARENT" },
  model: "scripted/test-model",
  agent: "build",
  mode: "approve",
  cwd: "/repo",
  tools: ["read", "shell"],
  maxSteps: 100,
  version: "0.1.0",
};

const decision = (seat: string, seq: number): RecordedDecision => ({
  seat,
  holder: "code",
  answer: "x",
  reasons: [{ rule: "default", decisive: true }],
  seq,
  at: "2026-01-01T00:00:00.000Z",
});

/** A printer whose lines are collected, on a clock that says what the test tells it. */
function printer(options: { decisions?: boolean } = {}) {
  let out = "";
  let clock = 1_000;
  const json = jsonPrinter({ ...options, write: (text) => (out += text), now: () => clock });
  return {
    json,
    advance: (ms: number) => (clock += ms),
    lines: () => checkedStream(out),
  };
}

describe("jsonPrinter", () => {
  it("writes the session first, though set-up decisions came before it, and numbers every line", () => {
    const p = printer();
    p.json.event({ type: "decision", decision: decision("session.target", 2) });
    p.json.event({ type: "model_wait", waiting: true });
    p.json.start(start);
    p.json.event({ type: "text", text: "Hi." });
    const lines = p.lines();
    assert.deepEqual(
      lines.map((l) => [l.seq, l.type]),
      [
        [1, "session"],
        [2, "decision"],
        [3, "text"],
      ],
    );
    assert.deepEqual(lines[0], {
      v: 1,
      seq: 1,
      type: "session",
      session: "01SESSION",
      opened: "fork",
      parent: "01PARENT",
      model: "scripted/test-model",
      agent: "build",
      mode: "approve",
      cwd: "/repo",
      tools: ["read", "shell"],
      maxSteps: 100,
      version: "0.1.0",
    });
    // The ledger's own number moves to ledgerSeq: seq is the line's.
    assert.equal(lines[1]?.ledgerSeq, 2);
    assert.ok(lines.every((l) => l.v === 1 && l.session === "01SESSION"));
  });

  it("a new session has no parent; usage of a model without prices has a null cost", () => {
    const p = printer();
    p.json.start({ ...start, opened: { mode: "new" } });
    const usage: RunEvent = {
      type: "usage",
      step: 1,
      model: "m/x",
      usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0 },
    };
    p.json.event(usage);
    p.json.event({ ...usage, step: 2, cost: 0.25 });
    const [session, unpriced, priced] = p.lines();
    assert.equal(session?.parent, null);
    assert.equal(unpriced?.cost, null);
    assert.equal(priced?.cost, 0.25);
  });

  it("done carries the result, the duration, the run's totals, and why it did not end done", () => {
    const p = printer();
    p.json.start(start);
    p.advance(1234);
    p.json.done(
      {
        status: "limit",
        steps: 3,
        denied: 0,
        message: "stopped: the turn reached its limit",
        lastText: "Still going.",
      },
      {
        session: "01SESSION",
        exitCode: 3,
        usage: { input: 30, output: 6, cacheRead: 10, cacheWrite: 0, requests: 3, cost: 0.5, costUnknown: 0 },
      },
    );
    const done = p.lines().at(-1);
    assert.deepEqual(done, {
      v: 1,
      seq: 2,
      type: "done",
      session: "01SESSION",
      status: "limit",
      exitCode: 3,
      steps: 3,
      denied: 0,
      result: "Still going.",
      durationMs: 1234,
      usage: { input: 30, output: 6, cacheRead: 10, cacheWrite: 0, requests: 3 },
      cost: 0.5,
      message: "stopped: the turn reached its limit",
    });
  });

  it("a total with a request of unknown price has no cost, rather than one too low; done has no message", () => {
    const p = printer();
    p.json.start(start);
    p.json.done(
      { status: "done", steps: 1, denied: 0 },
      {
        session: "01SESSION",
        exitCode: 0,
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, requests: 2, cost: 0.1, costUnknown: 1 },
      },
    );
    const done = p.lines().at(-1);
    assert.equal(done?.cost, null);
    assert.equal(done?.result, "");
    assert.equal("message" in (done ?? {}), false);
  });

  it("a finished run with a denied call is denied, not done", () => {
    const p = printer();
    p.json.start(start);
    p.json.done({ status: "done", steps: 2, denied: 1, lastText: "ok" }, { session: "01SESSION", exitCode: 3 });
    const done = p.lines().at(-1);
    assert.equal(done?.status, "denied");
    assert.equal(done?.usage, null);
  });

  it("--no-decisions leaves decisions out, before the session and after", () => {
    const p = printer({ decisions: false });
    p.json.event({ type: "decision", decision: decision("session.target", 2) });
    p.json.start(start);
    p.json.event({ type: "decision", decision: decision("turn.done", 9) });
    p.json.event({ type: "tool_call", id: "c1", name: "read", input: { path: "a" } });
    assert.deepEqual(
      p.lines().map((l) => l.type),
      ["session", "tool_call"],
    );
  });

  it("a failure before the session opens is an error and a done of status error, without a session", () => {
    const p = printer();
    p.json.event({ type: "decision", decision: decision("session.target", 2) });
    p.advance(5);
    p.json.failed(new UsageError("unknown agent ghost"));
    assert.deepEqual(p.lines(), [
      { v: 1, seq: 1, type: "error", message: "unknown agent ghost" },
      { v: 1, seq: 2, type: "done", status: "error", exitCode: 2, message: "unknown agent ghost", durationMs: 5 },
    ]);
  });

  it("a failure after the session opened keeps the session on its lines", () => {
    const p = printer();
    p.json.start(start);
    p.json.failed(new UsageError("disk full"));
    const lines = p.lines();
    assert.deepEqual(
      lines.map((l) => [l.type, l.session]),
      [
        ["session", "01SESSION"],
        ["error", "01SESSION"],
        ["done", "01SESSION"],
      ],
    );
  });
});

describe("schema/run-stream.v1.json", () => {
  it("names every model error class an error event can carry, and no other", () => {
    const schema = JSON.parse(readFileSync(STREAM_SCHEMA_PATH, "utf8"));
    assert.deepEqual(schema.$defs.error.properties.class.enum, [...ERROR_CLASSES]);
  });

  it("names the holders and the modes the code has", () => {
    const schema = JSON.parse(readFileSync(STREAM_SCHEMA_PATH, "utf8"));
    assert.deepEqual(schema.$defs.decision.properties.holder.enum, [...HOLDERS]);
    assert.deepEqual([...schema.$defs.session.properties.mode.enum].sort(), [...MODE_NAMES].sort());
  });
});
