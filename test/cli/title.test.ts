import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { type Scenario, startScenario } from "../support/scenario.js";

const MESSAGE = "the test in test/flaky.test.ts fails one time in ten, find out why";

/** The title request: no tools, the title system prompt. */
const title = (reply: Record<string, unknown>) => ({ match: { system: "title of a coding session" }, reply });
/** The turn's request: it offers tools. */
const turn = { match: { tool: "read" }, reply: { text: "Found it." } };
/** The user's config names a small model on the scripted server: it writes titles. */
const small = { global: { small_model: "scripted/tiny" } };

/** Runs are on a machine in India (UTC+05:30, no daylight saving): the default title's time is its clock's. */
const TZ = { TZ: "Asia/Kolkata" };

/** `HH:MM` in India of an ISO time. */
function indianClock(iso: string): string {
  return new Date(Date.parse(iso) + 330 * 60_000).toISOString().slice(11, 16);
}

/** The session's start, as its listing says. */
async function createdOf(s: Scenario, id: string): Promise<string> {
  const result = await s.run(["sessions", "--json"]);
  const session = (JSON.parse(result.stdout) as Array<{ id: string; created: string }>).find((x) => x.id === id);
  return session?.created ?? assert.fail(`${id} is not listed`);
}

/** The listed sessions' ids and titles. */
async function listed(s: Scenario): Promise<Array<{ id: string; title: string }>> {
  const result = await s.run(["sessions", "--json"]);
  assert.equal(result.code, 0, result.stderr);
  return (JSON.parse(result.stdout) as Array<{ id: string; title: string }>).map(({ id, title }) => ({ id, title }));
}

describe("session titles (seat session.title)", () => {
  it("a new session is named by small_model from the first message, beside the turn", async () => {
    const s = await startScenario({ rules: [title({ text: '"Fixing the flaky test."' }), turn] }, small);
    try {
      const result = await s.run(["run", MESSAGE]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 2);
      const asked = s.server.requests.find((r) => r.normalized?.system.includes("title of a coding session"));
      assert.deepEqual(asked?.normalized?.tools, []);
      assert.equal((asked?.json as { model?: string } | undefined)?.model, "tiny");

      const { decisions, events, id } = s.latest();
      assert.deepEqual(await listed(s), [{ id, title: "Fixing the flaky test" }]);
      const decision = expectDecision(decisions, "session.title", "model", "Fixing the flaky test");
      assert.ok(decision.reasons.some((r) => r.key === "small_model" && r.detail === "scripted/tiny"));
      // Its tokens count in the session's cost, marked as the title's.
      const usage = events
        .filter((e) => e.type === "model.usage")
        .map((e) => (e.data as { for?: string }).for ?? "the turn");
      assert.deepEqual(usage.sort(), ["session.title", "the turn"]);

      // A resumed session keeps its title: nothing more is asked for it.
      const again = await s.run(["run", "-c", "and the other one"]);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(s.server.requests.length, 3);
      assert.deepEqual(await listed(s), [{ id, title: "Fixing the flaky test" }]);
      assert.equal(s.latest().decisions.filter((d) => d.seat === "session.title").length, 1);
    } finally {
      await s.close();
    }
  });

  it("a failed title request keeps the first words of the message, recorded with why", async () => {
    const s = await startScenario({ rules: [title({ error: { status: 500 } }), turn] }, small);
    try {
      const result = await s.run(["run", MESSAGE], { env: TZ });
      assert.equal(result.code, 0, result.stderr);
      // One attempt: a title is not worth a retry.
      assert.equal(s.server.requests.length, 2);
      const { decisions, id } = s.latest();
      // The first words, then when the session started on the machine's clock.
      const fallback = `the test in test/flaky.test.ts fails one… · ${indianClock(await createdOf(s, id))}`;
      assert.deepEqual(await listed(s), [{ id, title: fallback }]);
      const decision = expectDecision(decisions, "session.title", "code", fallback);
      assert.ok(
        decision.reasons.some((r) => r.rule === "model's title not used" && /^server_error/.test(r.detail ?? "")),
        JSON.stringify(decision.reasons),
      );
    } finally {
      await s.close();
    }
  });

  it("with --title the person names it and no title is asked for", async () => {
    const s = await startScenario({ rules: [turn] }, small);
    try {
      const result = await s.run(["run", "--title", "Flaky test hunt", MESSAGE]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 1);
      const { decisions, id } = s.latest();
      assert.deepEqual(await listed(s), [{ id, title: "Flaky test hunt" }]);
      expectDecision(decisions, "session.title", "person", "Flaky test hunt");
    } finally {
      await s.close();
    }
  });

  it("without small_model no title is asked for: the first words of the message are kept", async () => {
    const s = await startScenario({ rules: [turn] });
    try {
      const result = await s.run(["run", MESSAGE], { env: TZ });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(s.server.requests.length, 1);
      const { decisions, id } = s.latest();
      const fallback = `the test in test/flaky.test.ts fails one… · ${indianClock(await createdOf(s, id))}`;
      assert.deepEqual(await listed(s), [{ id, title: fallback }]);
      const decision = expectDecision(decisions, "session.title", "code", fallback);
      assert.ok(decision.reasons.some((r) => r.rule === "no small_model"));
    } finally {
      await s.close();
    }
  });
});
