import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { SessionStore } from "../store/session-store.js";
import { readDecisions, recordDecision } from "./record.js";
import { formatReason } from "./render.js";

describe("recording decisions", () => {
  let dir: string;
  let store: SessionStore;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "bosun-record-"));
    store = SessionStore.open(join(dir, "bosun.db"));
  });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("appends a decision event and reads it back in order", () => {
    const session = store.create({ directory: "/w" });
    recordDecision(store, session.id, {
      seat: "session.target",
      holder: "person",
      answer: { mode: "resume", session: "X" },
      reasons: [{ rule: "session given by the person", source: "--session", decisive: true }],
      subject: { step: 0 },
    });
    recordDecision(store, session.id, {
      seat: "config.load",
      holder: "code",
      answer: ["default:built-in"],
      reasons: [],
    });
    const decisions = readDecisions(store, session.id);
    assert.deepEqual(
      decisions.map((d) => [d.seq, d.seat, d.holder]),
      [
        [2, "session.target", "person"],
        [3, "config.load", "code"],
      ],
    );
    assert.deepEqual(decisions[0]?.answer, { mode: "resume", session: "X" });
    assert.deepEqual(decisions[0]?.subject, { step: 0 });
    assert.match(decisions[0]?.at ?? "", /^\d{4}-\d\d-\d\dT/);
  });

  it("refuses a seat that is not declared", () => {
    const session = store.create({ directory: "/w" });
    assert.throws(
      () => recordDecision(store, session.id, { seat: "made.up", holder: "code", answer: 1, reasons: [] }),
      /undeclared seat "made.up"/,
    );
    assert.equal(readDecisions(store, session.id).length, 0);
  });

  it("refuses a holder the seat does not admit", () => {
    const session = store.create({ directory: "/w" });
    assert.throws(
      () => recordDecision(store, session.id, { seat: "config.load", holder: "model", answer: [], reasons: [] }),
      /config.load cannot be held by model/,
    );
    assert.equal(readDecisions(store, session.id).length, 0);
  });
});

describe("rendering decisions", () => {
  it("names file, line and key in a reason", () => {
    assert.equal(
      formatReason({ rule: "project layer", detail: "read", source: "/r/bosun.json", line: 4, key: "model" }),
      "project layer: read (/r/bosun.json:4 model)",
    );
    assert.equal(formatReason({ rule: "default" }), "default");
  });
});
