import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ClassifiedError } from "./errors.js";
import { decideRetry } from "./retry.js";

const policy = { maxAttempts: 4, maxDelayMs: 30_000, baseDelayMs: 1000 };
const error = (cls: ClassifiedError["class"], extra: Partial<ClassifiedError> = {}): ClassifiedError => ({
  class: cls,
  message: "boom",
  ...extra,
});

describe("model.retry decider", () => {
  it("retries rate limits, server errors and network failures with exponential backoff and jitter", () => {
    for (const cls of ["rate_limit", "server_error", "network"] as const) {
      const low = decideRetry({ error: error(cls), attempt: 1, outputShown: false, policy, random: () => 0 });
      assert.equal(low.holder, "code");
      assert.deepEqual(low.answer, { retry: true, delayMs: 500, class: cls, attempt: 1 });
      const high = decideRetry({ error: error(cls), attempt: 3, outputShown: false, policy, random: () => 0.999999 });
      assert.equal(high.answer.delayMs, 4000);
    }
  });

  it("caps the backoff at retry.max_delay_ms", () => {
    const capped = decideRetry({
      error: error("server_error"),
      attempt: 9,
      outputShown: false,
      policy: { ...policy, maxAttempts: 20, maxDelayMs: 5000 },
      random: () => 0.999999,
    });
    assert.equal(capped.answer.delayMs, 5000);
  });

  it("honours retry-after exactly", () => {
    const answer = decideRetry({
      error: error("rate_limit", { retryAfterMs: 7000 }),
      attempt: 1,
      outputShown: false,
      policy,
      random: () => 0.5,
    });
    assert.deepEqual(answer.answer, { retry: true, delayMs: 7000, class: "rate_limit", attempt: 1 });
    assert.equal(answer.reasons.find((r) => r.decisive)?.rule, "retry-after honoured");
  });

  it("gives up when retry-after asks for longer than the cap", () => {
    const answer = decideRetry({
      error: error("rate_limit", { retryAfterMs: 600_000 }),
      attempt: 1,
      outputShown: false,
      policy,
      random: () => 0,
    });
    assert.equal(answer.answer.retry, false);
    assert.match(answer.reasons.find((r) => r.decisive)?.detail ?? "", /600000 ms, more than retry.max_delay_ms 30000/);
  });

  it("never retries classes a second try cannot fix", () => {
    for (const cls of [
      "context_overflow",
      "payload_too_large",
      "quota",
      "authentication",
      "content_policy",
      "invalid_request",
      "unknown",
    ] as const) {
      const answer = decideRetry({ error: error(cls), attempt: 1, outputShown: false, policy, random: () => 0 });
      assert.equal(answer.answer.retry, false, cls);
      assert.equal(answer.reasons.find((r) => r.decisive)?.rule, "not retryable");
    }
  });

  it("never retries once output of the attempt was shown", () => {
    const answer = decideRetry({ error: error("network"), attempt: 1, outputShown: true, policy, random: () => 0 });
    assert.equal(answer.answer.retry, false);
    assert.equal(answer.reasons.find((r) => r.decisive)?.rule, "output already shown");
  });

  it("stops after retry.max_attempts", () => {
    const answer = decideRetry({
      error: error("server_error"),
      attempt: 4,
      outputShown: false,
      policy,
      random: () => 0,
    });
    assert.equal(answer.answer.retry, false);
    assert.equal(answer.reasons.find((r) => r.decisive)?.detail, "4 of 4 (retry.max_attempts)");
  });
});
