import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UsageError } from "../errors.js";
import type { SessionInfo } from "../store/session-store.js";
import { checkTargetFlags, decideSessionTarget } from "./target.js";

const session = (id: string, directory = "/w", title = ""): SessionInfo => ({
  id,
  title,
  directory,
  parentId: null,
  created: 0,
  updated: 0,
});

describe("session.target decider", () => {
  it("starts a new session by default, held by code", () => {
    const answer = decideSessionTarget({}, { directory: "/w" });
    assert.equal(answer.holder, "code");
    assert.deepEqual(answer.answer, { mode: "new" });
    assert.equal(answer.reasons[0]?.rule, "default");
  });

  it("resumes the session the person named", () => {
    const answer = decideSessionTarget({ session: "abc" }, { directory: "/w", named: session("A1", "/w", "abc") });
    assert.equal(answer.holder, "person");
    assert.deepEqual(answer.answer, { mode: "resume", session: "A1" });
    assert.equal(answer.reasons[0]?.source, "--session");
    assert.equal(answer.reasons[0]?.decisive, true);
  });

  it("notes when a resumed session was started in another directory", () => {
    const answer = decideSessionTarget({ session: "A1" }, { directory: "/w", named: session("A1", "/elsewhere") });
    assert.ok(answer.reasons.some((r) => r.detail === "the session was started in /elsewhere"));
  });

  it("continues the latest session here", () => {
    const answer = decideSessionTarget({ continue: true }, { directory: "/w", latestHere: session("L1") });
    assert.equal(answer.holder, "person");
    assert.deepEqual(answer.answer, { mode: "continue", session: "L1" });
    assert.equal(answer.reasons[0]?.source, "--continue");
  });

  it("forks the named or latest session when --fork is given", () => {
    const named = decideSessionTarget({ session: "A1", fork: true }, { directory: "/w", named: session("A1") });
    assert.deepEqual(named.answer, { mode: "fork", from: "A1" });
    assert.equal(named.holder, "person");
    assert.equal(named.reasons.find((r) => r.decisive)?.source, "--fork");
    const latest = decideSessionTarget({ continue: true, fork: true }, { directory: "/w", latestHere: session("L1") });
    assert.deepEqual(latest.answer, { mode: "fork", from: "L1" });
  });
});

describe("session target flags", () => {
  it("refuses --session with --continue", () => {
    assert.throws(() => checkTargetFlags({ session: "x", continue: true }), UsageError);
  });

  it("refuses --fork without a session to copy", () => {
    assert.throws(() => checkTargetFlags({ fork: true }), /--fork needs a session/);
  });

  it("accepts each meaningful combination", () => {
    for (const flags of [
      {},
      { session: "x" },
      { continue: true },
      { session: "x", fork: true },
      { continue: true, fork: true },
    ]) {
      assert.doesNotThrow(() => checkTargetFlags(flags));
    }
  });
});
