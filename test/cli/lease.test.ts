import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { startScenario, waitFor } from "../support/scenario.js";

/**
 * One run at a time per session: a second `bosun run` on a session another live run holds is
 * refused (exit 2) before it writes anything, and never marks the live run's call interrupted.
 * A holder that died (SIGKILL) is recognized at once, and its unfinished call is recovered.
 */
describe("bosun run: the session lease", () => {
  const script = {
    rules: [
      { match: { anyMessage: "continue now" }, reply: { text: "Back." } },
      {
        match: { request: 1 },
        // Naps until the test says so, however slow the machine: no race with the refused run.
        reply: {
          toolCalls: [
            {
              id: "nap",
              name: "shell",
              arguments: { command: "for i in $(seq 600); do [ -f wake ] && exit 0; sleep 0.1; done" },
            },
          ],
        },
      },
      { reply: { text: "Rested." } },
    ],
  };
  const callStarted = (s: Awaited<ReturnType<typeof startScenario>>) => () =>
    s.latest().events.some((e) => e.type === "call.started") ? true : undefined;

  it("refuses a second run on a session in use, leaves the live call alone, and works once the first is done", async () => {
    const s = await startScenario(script);
    try {
      const { child, result } = s.spawn(["run", "--auto", "take a nap"]);
      await waitFor(callStarted(s));

      const refused = await s.run(["run", "-c", "again"]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(
        refused.stderr,
        new RegExp(
          `session ${s.latest().id} is in use by bosun pid ${child.pid} \\(since [^)]+\\); wait for it to finish or stop it`,
        ),
      );
      // Refused before anything was written or asked: no message, no decisions, no model request.
      const during = s.latest();
      assert.ok(!during.events.some((e) => e.type === "call.interrupted"));
      assert.ok(!JSON.stringify(during.events).includes("again"));
      assert.equal(during.decisions.filter((d) => d.seat === "session.target").length, 1);
      assert.equal(s.server.requests.length, 1);

      s.ws.write("wake", "");
      const first = await result;
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout, "Rested.\n");
      const after = s.latest();
      const outcomes = after.events
        .filter((e) => e.type.startsWith("call.") && (e.data as { id?: string }).id === "nap")
        .map((e) => e.type);
      assert.deepEqual(outcomes, ["call.started", "call.finished"]);
      assert.ok(!after.decisions.some((d) => d.seat === "session.recover"));
      assert.ok(!s.server.requests.some((r) => JSON.stringify(r.normalized?.messages ?? []).includes("again")));

      const next = await s.run(["run", "-c", "continue now"]);
      assert.equal(next.code, 0, next.stderr);
      assert.equal(next.stdout, "Back.\n");
      const last = s.latest();
      assert.equal(last.id, after.id);
      assert.ok(!last.events.some((e) => e.type === "call.interrupted"));
      expectDecision(last.decisions, "session.target", "person", { mode: "continue", session: after.id });
    } finally {
      await s.close();
    }
  });

  it("takes over at once from a run that was killed, and marks its unfinished call interrupted", async () => {
    const s = await startScenario(script);
    try {
      const { child, result } = s.spawn(["run", "--auto", "take a nap"]);
      await waitFor(callStarted(s));
      child.kill("SIGKILL");
      await result;

      const next = await s.run(["run", "-c", "continue now"]);
      assert.equal(next.code, 0, next.stderr);
      assert.equal(next.stdout, "Back.\n");
      const { events, decisions } = s.latest();
      assert.deepEqual(
        events.filter((e) => (e.data as { id?: string } | null)?.id === "nap").map((e) => e.type),
        ["call.started", "call.interrupted"],
      );
      const recovered = expectDecision(decisions, "session.recover", "code", "interrupted");
      assert.deepEqual(recovered.subject, { step: 1, call: "nap" });
      assert.match(
        JSON.stringify(recovered.reasons),
        new RegExp(`"rule":"previous holder gone","detail":"bosun pid ${child.pid} on [^"]+: not running"`),
      );
    } finally {
      // The killed run's nap outlives it (its own process group); wake it so it ends now.
      s.ws.write("wake", "");
      await s.close();
    }
  });
});
