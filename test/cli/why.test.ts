import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createWorkspace, type Workspace } from "../support/workspace.js";

interface JsonDecision {
  seq: number;
  seat: string;
  holder: string;
  answer: unknown;
  reasons: Array<{ rule: string; source?: string; detail?: string }>;
  subject: unknown;
  at: string;
  copiedFrom: string | null;
}

describe("bosun why", () => {
  let ws: Workspace;
  let base: string;
  let fork: string;
  before(async () => {
    ws = createWorkspace();
    ws.write("bosun.json", '{ "model": "a/b" }');
    base = (await ws.run(["sessions", "new", "--title", "base"])).stdout.trim();
    fork = (await ws.run(["sessions", "fork", "base"])).stdout.trim();
  });
  after(() => ws.cleanup());

  it("prints one line per decision: seq, step, seat, holder, answer, reason", async () => {
    const result = await ws.run(["why", base]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split("\n");
    assert.equal(lines.length, 2);
    assert.equal(
      lines[0],
      '#2\t-\tsession.target\tcode\t{"mode":"new"}\t— default: no --session, --continue or --fork given: start a new session',
    );
    assert.match(
      lines[1] ?? "",
      /^#3\t-\tconfig\.load\tcode\t\["default:built-in","project:.*bosun\.json"\]\t— every layer that exists is read, lowest first: 2 read; absent: .*home\/bosun\.json/,
    );
  });

  it("prints the ledger as JSON with seat, holder, answer, reasons, subject, at", async () => {
    const result = await ws.run(["why", fork, "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const decisions = JSON.parse(result.stdout) as JsonDecision[];
    // The fork carries the original's two decisions, then its own two.
    assert.deepEqual(
      decisions.map((d) => `${d.seat}:${d.holder}`),
      ["session.target:code", "config.load:code", "session.target:person", "config.load:code"],
    );
    const forked = decisions[2] as JsonDecision;
    assert.deepEqual(forked.answer, { mode: "fork", from: base });
    // Recorded as the person said it: through `bosun sessions fork`, not a flag they never typed.
    assert.ok(forked.reasons.some((r) => r.source === "bosun sessions fork"));
    for (const d of decisions) {
      assert.deepEqual(Object.keys(d).sort(), [
        "answer",
        "at",
        "copiedFrom",
        "holder",
        "reasons",
        "seat",
        "seq",
        "subject",
      ]);
      assert.ok(!Number.isNaN(Date.parse(d.at)));
    }
    // The first two came with the copy, at the times they happened in the original.
    assert.deepEqual(
      decisions.map((d) => d.copiedFrom),
      [base, base, null, null],
    );
    const original = JSON.parse((await ws.run(["why", base, "--json"])).stdout) as JsonDecision[];
    assert.deepEqual(
      decisions.slice(0, 2).map((d) => d.at),
      original.map((d) => d.at),
    );
    const text = (await ws.run(["why", fork])).stdout.trim().split("\n");
    assert.match(text[0] ?? "", new RegExp(`\\t\\[copied from ${base}\\]$`));
    assert.doesNotMatch(text[2] ?? "", /copied from/);
  });

  it("filters by seat glob", async () => {
    const only = JSON.parse((await ws.run(["why", fork, "--json", "--seat", "session.*"])).stdout) as JsonDecision[];
    assert.deepEqual(
      only.map((d) => d.seat),
      ["session.target", "session.target"],
    );
    const none = await ws.run(["why", fork, "--seat", "model.*"]);
    assert.equal(none.code, 0);
    assert.equal(none.stdout.trim(), 'no decisions for seats matching "model.*"');
  });

  it("finds the session by title and refuses an unknown one with exit 2", async () => {
    const byTitle = await ws.run(["why", "base", "--json"]);
    assert.equal((JSON.parse(byTitle.stdout) as JsonDecision[]).length, 2);
    const unknown = await ws.run(["why", "bsae"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no session matches "bsae"; closest:\n {2}\S+ {2}base/);
    assert.equal(unknown.stdout, "");
  });
});
