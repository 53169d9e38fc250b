import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { classifyError } from "./errors.js";
import { resolveModel } from "./resolve.js";
import { boundedFetch, ModelTimeoutError, seconds, type Timers, waitLimits } from "./wait.js";

/** Timers that fire only when the test says so: no test here waits for real. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  const timers: Timers = {
    set(fn, ms) {
      const id = next++;
      pending.set(id, { fn, ms });
      return id;
    },
    clear: (handle) => pending.delete(handle as number),
  };
  const fire = () => {
    for (const [id, timer] of [...pending]) {
      pending.delete(id);
      timer.fn();
    }
  };
  return { timers, pending, fire, waits: () => [...pending.values()].map((t) => t.ms) };
}

/** A fetch that answers only when told, and behaves like Node's on abort (rejects with the reason). */
function heldFetch() {
  let seen: AbortSignal | undefined;
  let answer: (response: Response) => void = () => {};
  const fetch = ((_input: unknown, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      seen = init?.signal ?? undefined;
      answer = resolve;
      seen?.addEventListener("abort", () => reject(seen?.reason), { once: true });
    })) as typeof globalThis.fetch;
  return { fetch, signal: () => seen, answer: (response: Response) => answer(response) };
}

/** A body that sends `first`, then nothing until cancelled. */
function stallingBody(first: string) {
  let cancelled: unknown;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  return { body, cancelled: () => cancelled };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const limits = { timeoutMs: 500, idleMs: 700 };
const URL_ = "http://127.0.0.1:9/v1/chat/completions";

describe("boundedFetch", () => {
  it("gives up when no headers come within timeout_ms, names the provider and URL, and frees the request", async () => {
    const clock = manualTimers();
    const held = heldFetch();
    const fetch = boundedFetch({
      limits,
      provider: "local",
      baseURL: "http://127.0.0.1:9/v1",
      fetch: held.fetch,
      timers: clock.timers,
    });
    const response = fetch(URL_, { method: "POST" });
    await tick();
    assert.deepEqual(clock.waits(), [500]);
    clock.fire();
    await assert.rejects(response, (error: unknown) => {
      assert.ok(error instanceof ModelTimeoutError);
      assert.equal(error.message, "no response from local (http://127.0.0.1:9/v1) within 0.5 s");
      return true;
    });
    assert.equal(held.signal()?.aborted, true, "the request to the provider is aborted, not left open");
  });

  it("without a configured base URL, names the request's origin", async () => {
    const clock = manualTimers();
    const fetch = boundedFetch({ limits, provider: "anthropic", fetch: heldFetch().fetch, timers: clock.timers });
    const response = fetch("https://api.anthropic.com/v1/messages");
    clock.fire();
    await assert.rejects(response, {
      message: "no response from anthropic (https://api.anthropic.com) within 0.5 s",
    });
  });

  it("clears the headers timer once they arrive, and the body passes through whole", async () => {
    const clock = manualTimers();
    const held = heldFetch();
    const fetch = boundedFetch({ limits, provider: "p", fetch: held.fetch, timers: clock.timers });
    const response = fetch(URL_);
    await tick();
    held.answer(new Response("hello body", { status: 201, headers: { "x-a": "1" } }));
    const got = await response;
    // Nobody reads yet: a slow reader is not the provider's silence, so no idle timer runs.
    assert.deepEqual(clock.waits(), []);
    assert.equal(got.status, 201);
    assert.equal(got.headers.get("x-a"), "1");
    assert.equal(await got.text(), "hello body");
    assert.deepEqual(clock.waits(), []);
  });

  it("fails a body that stalls for idle_ms while a read waits, and cancels the provider's stream", async () => {
    const clock = manualTimers();
    const held = heldFetch();
    const stalled = stallingBody("data: one\n\n");
    const fetch = boundedFetch({
      limits,
      provider: "local",
      baseURL: "http://h/v1",
      fetch: held.fetch,
      timers: clock.timers,
    });
    const response = fetch(URL_);
    await tick();
    held.answer(new Response(stalled.body));
    const reader = (await response).body?.getReader();
    assert.ok(reader);
    assert.equal(new TextDecoder().decode((await reader.read()).value), "data: one\n\n");
    const next = reader.read();
    await tick();
    assert.deepEqual(clock.waits(), [700]);
    clock.fire();
    await assert.rejects(next, (error: unknown) => {
      assert.ok(error instanceof ModelTimeoutError);
      assert.equal(error.phase, "idle");
      assert.equal(error.message, "no response from local (http://h/v1): it stopped sending for 0.7 s");
      return true;
    });
    assert.ok(stalled.cancelled() instanceof ModelTimeoutError);
    assert.equal(held.signal()?.aborted, true);
  });

  it("an abort by the caller ends the wait at once, before any timer", async () => {
    const clock = manualTimers();
    const held = heldFetch();
    const fetch = boundedFetch({ limits, provider: "p", fetch: held.fetch, timers: clock.timers });
    const caller = new AbortController();
    const response = fetch(URL_, { signal: caller.signal });
    await tick();
    caller.abort(Object.assign(new Error("interrupted"), { name: "AbortError" }));
    await assert.rejects(response, { name: "AbortError", message: "interrupted" });
    assert.deepEqual(clock.waits(), [], "the headers timer is cleared");
  });

  it("an abort by the caller mid-stream ends the read at once", async () => {
    const clock = manualTimers();
    const held = heldFetch();
    const stalled = stallingBody("x");
    const caller = new AbortController();
    const fetch = boundedFetch({ limits, provider: "p", fetch: held.fetch, timers: clock.timers });
    const response = fetch(URL_, { signal: caller.signal });
    await tick();
    // Like Node's fetch: the body errors when the request's signal aborts.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const reader = stalled.body.getReader();
        held.signal()?.addEventListener("abort", () => controller.error(held.signal()?.reason));
        void reader.read().then((chunk) => chunk.value && controller.enqueue(chunk.value));
      },
    });
    held.answer(new Response(body));
    const reader = (await response).body?.getReader();
    assert.ok(reader);
    await reader.read();
    const next = reader.read();
    await tick();
    caller.abort(Object.assign(new Error("Esc"), { name: "AbortError" }));
    await assert.rejects(next, { name: "AbortError" });
    assert.deepEqual(clock.waits(), []);
  });
});

describe("the timeout class", () => {
  it("bosun's own timeouts are class timeout with their message, even inside the SDK's wrappers", () => {
    const own = new ModelTimeoutError("headers", 60_000, "openai", "https://api.openai.com");
    assert.deepEqual(classifyError(own), {
      class: "timeout",
      message: "no response from openai (https://api.openai.com) within 60 s",
    });
    // The SDK wraps a failure while reading an error body as "Failed to process error response".
    const wrapped = Object.assign(new Error("Failed to process error response"), { statusCode: 500, cause: own });
    assert.equal(classifyError(wrapped).class, "timeout");
  });
});

describe("waitLimits", () => {
  const resolved = (content: Record<string, unknown>) => {
    const config = configFrom({
      model: "local/m",
      ...content,
      provider: {
        local: { type: "openai-compatible", baseURL: "http://127.0.0.1:1/v1", ...(content.provider as object) },
      },
    });
    const resolution = resolveModel("local/m", config, {});
    assert.ok(resolution.ok);
    return waitLimits(resolution.model, config);
  };

  it("defaults to 60 s to the headers and 120 s between chunks", () => {
    assert.deepEqual(resolved({}), { timeoutMs: 60_000, idleMs: 120_000 });
  });

  it("model_wait, then the provider, then the model: the most specific wins, key by key", () => {
    assert.deepEqual(resolved({ model_wait: { timeout_ms: 500 } }), { timeoutMs: 500, idleMs: 120_000 });
    assert.deepEqual(resolved({ model_wait: { timeout_ms: 500, idle_ms: 900 }, provider: { idle_ms: 800 } }), {
      timeoutMs: 500,
      idleMs: 800,
    });
    assert.deepEqual(
      resolved({
        model_wait: { timeout_ms: 500 },
        provider: { timeout_ms: 400, models: { m: { timeout_ms: 300 }, other: { timeout_ms: 1 } } },
      }),
      { timeoutMs: 300, idleMs: 120_000 },
    );
  });

  it("a bound must be a positive whole number of milliseconds; a bad one names its key", () => {
    assert.throws(() => configFrom({ model_wait: { timeout_ms: 0 } }), /"model_wait\.timeout_ms": Too small/);
    assert.throws(
      () => configFrom({ provider: { local: { idle_ms: "fast" } } }),
      /"provider\.local\.idle_ms": expected integer/,
    );
    // Node's HTTP client stops at 300 s on its own: a longer bound would be a promise not kept.
    assert.throws(() => configFrom({ model_wait: { idle_ms: 300_001 } }), /"model_wait\.idle_ms": Too big/);
    assert.throws(() => configFrom({ model_wait: { timeout: 5 } }), /did you mean "model_wait\.timeout_ms"/);
  });

  it("prints seconds plainly", () => {
    assert.equal(seconds(60_000), "60 s");
    assert.equal(seconds(500), "0.5 s");
    assert.equal(seconds(1500), "1.5 s");
    assert.equal(seconds(250), "0.25 s");
  });
});
