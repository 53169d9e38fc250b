import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { type Scenario, startScenario, waitFor } from "../support/scenario.js";

/**
 * A provider that accepts the request and then says nothing: every wait has a bound (class
 * timeout). The bounds here are a few hundred milliseconds; the defaults (60 s, 120 s) are
 * checked with an injected clock in src/model/request.test.ts.
 */

const fast = { model_wait: { timeout_ms: 300, idle_ms: 300 } };
const text = "one two three four five six seven eight nine ten";
/** Past the first text event of the openai-compatible stream, well before its end. */
const afterSomeText = 900;

/** No stack trace and no "Cannot connect" (it did connect). */
function assertClear(stderr: string) {
  assert.doesNotMatch(stderr, /\n\s+at .+:\d+:\d+/, stderr);
  assert.doesNotMatch(stderr, /cannot connect/i, stderr);
}

async function timed(s: Scenario, args: string[]) {
  const started = Date.now();
  const result = await s.run(args);
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

describe("bosun run: a provider that goes silent", () => {
  it("hang: no response within model_wait.timeout_ms is a clear error naming the provider and URL, at once", async () => {
    const s = await startScenario(
      { rules: [{ reply: { hang: true } }] },
      { global: { ...fast, retry: { max_attempts: 1 } } },
    );
    try {
      const result = await timed(s, ["run", "hello?"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr,
        new RegExp(`timeout: no response from scripted \\(${s.server.baseURL.replace(/\./g, "\\.")}\\) within 0\\.3 s`),
      );
      assertClear(result.stderr);
      assert.ok(result.seconds < 10, `${result.seconds} s`);
      expectDecision(s.latest().decisions, "model.retry", "code", { retry: false, class: "timeout", attempt: 1 });
      // bosun gave up on the connection rather than leaving it open.
      await waitFor(() => (s.server.request(1).outcome === "aborted" ? true : undefined));
    } finally {
      await s.close();
    }
  });

  it("hang, with the bound written as model.timeout_ms (model as an object): the same clear error", async () => {
    const s = await startScenario(
      { rules: [{ reply: { hang: true } }] },
      { global: { model: { id: "scripted/test-model", timeout_ms: 400 }, retry: { max_attempts: 1 } } },
    );
    try {
      const result = await timed(s, ["run", "hello?"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /timeout: no response from scripted \(.+\) within 0\.4 s/);
      assertClear(result.stderr);
      assert.ok(result.seconds < 10, `${result.seconds} s`);
      expectDecision(s.latest().decisions, "model.retry", "code", { retry: false, class: "timeout", attempt: 1 });
    } finally {
      await s.close();
    }
  });

  it("hang: retried like a network failure, each retry recorded with class timeout", async () => {
    const s = await startScenario(
      { rules: [{ reply: [{ hang: true }, { text: "Here now." }] }] },
      { global: { ...fast, retry: { max_attempts: 2, max_delay_ms: 50 } } },
    );
    try {
      const result = await s.run(["run", "hello?"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Here now\./);
      assert.equal(s.server.requests.length, 2);
      const retry = expectDecision(s.latest().decisions, "model.retry", "code");
      assert.deepEqual(
        { ...(retry.answer as object), delayMs: 0 },
        { retry: true, delayMs: 0, class: "timeout", attempt: 1 },
      );
      assert.match(retry.reasons[0]?.detail ?? "", /^timeout: no response from scripted .* within 0\.3 s$/);
    } finally {
      await s.close();
    }
  });

  it("a provider's own timeout_ms overrides model_wait, and a model's overrides its provider's", async () => {
    const s = await startScenario({ rules: [{ reply: { hang: true } }] });
    try {
      const provider = s.server.configFor("openai-compatible").provider.scripted;
      s.setUserConfig({
        model_wait: { timeout_ms: 60_000 },
        retry: { max_attempts: 1 },
        provider: { scripted: { ...provider, timeout_ms: 30_000, models: { "test-model": { timeout_ms: 250 } } } },
      });
      const result = await timed(s, ["run", "hello?"]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /no response from scripted \(.*\) within 0\.25 s/);
      assert.ok(result.seconds < 10, `${result.seconds} s`);
    } finally {
      await s.close();
    }
  });

  it("stall after text: what was shown is kept, the run says the stream stopped, and nothing is retried", async () => {
    const s = await startScenario(
      { rules: [{ reply: { text, stallAfterBytes: afterSomeText } }] },
      { global: { ...fast, retry: { max_attempts: 3 } } },
    );
    try {
      const result = await timed(s, ["run", "count"]);
      assert.equal(result.code, 1, result.stderr);
      assert.ok(result.stdout.length > 0 && text.startsWith(result.stdout.trim()), result.stdout);
      assert.notEqual(result.stdout.trim(), text);
      assert.match(
        result.stderr,
        /the response broke off after it started: timeout: no response from scripted \(.*\): it stopped sending for 0\.3 s/,
      );
      assertClear(result.stderr);
      assert.equal(s.server.requests.length, 1);
      const retry = expectDecision(s.latest().decisions, "model.retry", "code", {
        retry: false,
        class: "timeout",
        attempt: 1,
      });
      assert.equal(retry.reasons.find((r) => r.decisive)?.rule, "output already shown");
    } finally {
      await s.close();
    }
  });

  it("stall before any text: retried, and the second answer is the one shown", async () => {
    const s = await startScenario(
      { rules: [{ reply: [{ text, stallAfterBytes: 0 }, { text: "Second try." }] }] },
      { global: { ...fast, retry: { max_attempts: 2, max_delay_ms: 50 } } },
    );
    try {
      const result = await s.run(["run", "count"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), "Second try.");
      const retry = expectDecision(s.latest().decisions, "model.retry", "code");
      assert.equal((retry.answer as { class?: string }).class, "timeout");
      assert.equal((retry.answer as { retry?: boolean }).retry, true);
    } finally {
      await s.close();
    }
  });

  for (const protocol of ["openai-compatible", "anthropic", "openai", "openai-chat"] as const) {
    it(`garbage (${protocol}): a 200 that is not the protocol ends the run with a clear error, not a wait or an empty reply`, async () => {
      const s = await startScenario(
        { rules: [{ reply: { garbage: "<html><body>502 Bad Gateway</body></html>" } }] },
        { protocol, global: { ...fast, retry: { max_attempts: 1 } } },
      );
      try {
        const result = await timed(s, ["run", "hello?"]);
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, /bosun: the model request failed: unknown: .+/);
        assertClear(result.stderr);
        assert.ok(result.seconds < 10, `${result.seconds} s`);
      } finally {
        await s.close();
      }
    });
  }

  it("Ctrl-C during a hang wins at once, long before the bound", async () => {
    const s = await startScenario(
      { rules: [{ reply: { hang: true } }] },
      { global: { model_wait: { timeout_ms: 60_000 } } },
    );
    try {
      const { child, result } = s.spawn(["run", "hello?"]);
      await waitFor(() => (s.server.requests[0]?.outcome === "pending" ? true : undefined));
      const started = Date.now();
      child.kill("SIGINT");
      const cancelled = await result;
      assert.equal(cancelled.code, 130, cancelled.stderr);
      assert.ok(Date.now() - started < 5000, "cancel is prompt");
      assertClear(cancelled.stderr);
      assert.equal(s.latest().decisions.filter((d) => d.seat === "model.retry").length, 0, "an abort is no failure");
    } finally {
      await s.close();
    }
  });
});
