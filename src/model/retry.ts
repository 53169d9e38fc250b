import type { Answer, Reason } from "../contracts/decisions.js";
import { type ClassifiedError, RETRYABLE } from "./errors.js";

export interface RetryPolicy {
  maxAttempts: number;
  maxDelayMs: number;
  /** First backoff step; doubles each attempt. */
  baseDelayMs: number;
}

export interface RetryAnswer {
  retry: boolean;
  delayMs?: number;
  class: ClassifiedError["class"];
  attempt: number;
}

/**
 * Seat `model.retry`. Retry only a retryable class, only while nothing of this attempt has been
 * shown, and only within `retry.max_attempts`. The delay is exponential with jitter, capped at
 * `retry.max_delay_ms`; a server's retry-after is honoured, and when it asks for longer than the
 * cap bosun gives up rather than wait past what the person allowed.
 */
export function decideRetry(input: {
  error: ClassifiedError;
  /** 1-based number of the attempt that just failed. */
  attempt: number;
  outputShown: boolean;
  policy: RetryPolicy;
  /** A number in [0, 1): injected so tests are exact. */
  random: () => number;
}): Answer<RetryAnswer> {
  const { error, attempt, policy } = input;
  const base = { class: error.class, attempt };
  const reasons: Reason[] = [
    { rule: "error class", detail: `${error.class}${error.status ? ` (HTTP ${error.status})` : ""}: ${error.message}` },
  ];
  const giveUp = (rule: string, detail: string): Answer<RetryAnswer> => ({
    holder: "code",
    answer: { retry: false, ...base },
    reasons: [...reasons, { rule, detail, decisive: true }],
  });

  if (!RETRYABLE.has(error.class)) return giveUp("not retryable", `${error.class} will not change on a second try`);
  if (input.outputShown)
    return giveUp("output already shown", "retrying would repeat what was shown; reported as interrupted");
  if (attempt >= policy.maxAttempts) {
    return giveUp("attempts used up", `${attempt} of ${policy.maxAttempts} (retry.max_attempts)`);
  }
  if (error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > policy.maxDelayMs) {
      return giveUp(
        "retry-after too long",
        `the server asks for ${error.retryAfterMs} ms, more than retry.max_delay_ms ${policy.maxDelayMs}`,
      );
    }
    return {
      holder: "code",
      answer: { retry: true, delayMs: error.retryAfterMs, ...base },
      reasons: [...reasons, { rule: "retry-after honoured", detail: `${error.retryAfterMs} ms`, decisive: true }],
    };
  }
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Equal jitter: half fixed, half random, so many clients do not retry in step.
  const delayMs = Math.round(exponential / 2 + (exponential / 2) * input.random());
  return {
    holder: "code",
    answer: { retry: true, delayMs, ...base },
    reasons: [
      ...reasons,
      {
        rule: "backoff",
        detail: `attempt ${attempt + 1} of ${policy.maxAttempts} after ${delayMs} ms (cap ${policy.maxDelayMs})`,
        decisive: true,
      },
    ],
  };
}
