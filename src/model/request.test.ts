import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tool } from "ai";
import { z } from "zod";
import { configFrom } from "../../test/support/config.js";
import { expectDecision } from "../../test/support/ledger.js";
import {
  assertNoFailures,
  type ModelServer,
  type Script,
  type ScriptedProtocol,
  startModelServer,
} from "../../test/support/model-server.js";
import { DEFAULTS } from "../config/defaults.js";
import { BASE_DELAY_MS } from "../contracts/retry.js";
import { readDecisions, recordDecision } from "../seats/record.js";
import { SessionStore } from "../store/session-store.js";
import type { ModelEvent } from "./attempt.js";
import { type RequestOptions, type RequestResult, requestModel, retryPolicy } from "./request.js";
import { resolveModel } from "./resolve.js";
import { recordUsage, summarizeUsage } from "./session-usage.js";
import type { Timers } from "./wait.js";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const tools = {
  read: tool({ description: "Read a file", inputSchema: z.object({ path: z.string() }) }),
  list: tool({ description: "List a folder", inputSchema: z.object({ path: z.string() }) }),
};

let dir: string;
let store: SessionStore;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "bosun-request-"));
  store = SessionStore.open(join(dir, "bosun.db"));
});
after(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  result: RequestResult;
  events: ModelEvent[];
  sleeps: number[];
  decisions: ReturnType<typeof readDecisions>;
}

/** Runs one request through the real AI SDK provider against a scripted server over HTTP. */
async function run(
  protocol: ScriptedProtocol,
  script: Script,
  extra: {
    config?: Record<string, unknown>;
    options?: Partial<RequestOptions>;
    prompt?: string;
    /** The clock of the wait bounds, given the server (see heldTimers). */
    timers?: (server: ModelServer) => Timers;
    /** Told the server once it is up (to act when a request arrives). */
    onServer?: (server: ModelServer) => void;
  } = {},
): Promise<Run & { requests: number }> {
  const server = await startModelServer(script);
  extra.onServer?.(server);
  try {
    const config = configFrom({ ...server.configFor(protocol), ...extra.config });
    const resolution = resolveModel(config.config.model as string, config, {});
    assert.ok(resolution.ok, resolution.ok ? "" : resolution.problem);
    const session = store.create({ directory: dir });
    const events: ModelEvent[] = [];
    const sleeps: number[] = [];
    const result = await requestModel({
      model: resolution.model,
      config,
      messages: [{ role: "user", content: extra.prompt ?? "hello" }],
      tools,
      record: (decision) => recordDecision(store, session.id, decision),
      onEvent: (event) => events.push(event),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      env: {},
      ...(extra.timers ? { timers: extra.timers(server) } : {}),
      ...extra.options,
    });
    assertNoFailures(server);
    return { result, events, sleeps, decisions: readDecisions(store, session.id), requests: server.requests.length };
  } finally {
    await server.close();
  }
}

/** A loopback port that was free a moment ago and now has nobody listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const PROTOCOLS: ScriptedProtocol[] = ["openai-compatible", "anthropic", "openai", "openai-chat"];

for (const protocol of PROTOCOLS) {
  describe(`requestModel over ${protocol}`, () => {
    it("streams text in pieces and reports usage", async () => {
      const { result, events } = await run(protocol, {
        rules: [{ reply: { text: "The answer is forty two.", usage: { input: 120, output: 7 } } }],
      });
      assert.equal(result.status, "complete");
      assert.equal(result.text, "The answer is forty two.");
      const pieces = events.filter((e) => e.type === "text");
      assert.ok(pieces.length > 1, `text arrived in ${pieces.length} piece(s)`);
      if (result.status === "complete") {
        assert.equal(result.finishReason, "stop");
        assert.equal(result.usage.input, 120);
        assert.equal(result.usage.output, 7);
      }
    });

    it("returns one tool call, and several from one response", async () => {
      const one = await run(protocol, {
        rules: [{ reply: { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] } }],
      });
      assert.equal(one.result.status, "complete");
      assert.deepEqual(
        one.result.toolCalls.map((c) => [c.name, c.input]),
        [["read", { path: "a.txt" }]],
      );
      const many = await run(protocol, {
        rules: [
          {
            reply: {
              text: "Looking.",
              toolCalls: [
                { name: "read", arguments: { path: "a.txt" } },
                { name: "list", arguments: { path: "src" } },
              ],
            },
          },
        ],
      });
      assert.deepEqual(
        many.result.toolCalls.map((c) => [c.name, c.input]),
        [
          ["read", { path: "a.txt" }],
          ["list", { path: "src" }],
        ],
      );
      if (many.result.status === "complete") assert.equal(many.result.finishReason, "tool-calls");
    });

    it("marks a tool call with broken JSON arguments invalid and keeps the raw text", async () => {
      const { result } = await run(protocol, {
        rules: [{ reply: { toolCalls: [{ name: "read", arguments: '{"path": "a.txt"' }] } }],
      });
      assert.equal(result.status, "complete");
      const [call] = result.toolCalls;
      assert.equal(call?.name, "read");
      assert.equal(call?.invalid, true);
      assert.match(String(call?.input), /\{"path": "a\.txt"/);
    });

    it("reports finish length", async () => {
      const { result } = await run(protocol, { rules: [{ reply: { text: "cut short", finish: "length" } }] });
      assert.equal(result.status, "complete");
      if (result.status === "complete") assert.equal(result.finishReason, "length");
    });

    it("honours retry-after on a rate limit, records the retry, then succeeds", async () => {
      const { result, sleeps, decisions, requests } = await run(protocol, {
        rules: [{ reply: [{ error: { status: 429, headers: { "retry-after": "3" } } }, { text: "ok now" }] }],
      });
      assert.equal(result.status, "complete");
      assert.equal(result.text, "ok now");
      assert.equal(requests, 2);
      assert.deepEqual(sleeps, [3000]);
      const retry = expectDecision(decisions, "model.retry", "code", {
        retry: true,
        delayMs: 3000,
        class: "rate_limit",
        attempt: 1,
      });
      assert.equal(retry.subject?.attempt, 1);
    });

    it("keeps the partial output of a stream cut mid-way and does not retry it", async () => {
      const cut = { anthropic: 5, openai: 6, "openai-compatible": 3, "openai-chat": 3 }[protocol];
      const { result, decisions, requests } = await run(protocol, {
        rules: [{ reply: { text: "one two three four five six seven eight", cutAfterChunks: cut } }],
      });
      assert.equal(result.status, "interrupted");
      assert.ok(
        result.text.length > 0 && "one two three four five six seven eight".startsWith(result.text),
        result.text,
      );
      assert.equal(requests, 1);
      if (result.status === "interrupted") assert.equal(result.error.class, "network");
      const decision = expectDecision(decisions, "model.retry", "code");
      assert.equal(decision.reasons.find((r) => r.decisive)?.rule, "output already shown");
    });
  });
}

/**
 * The clock of the wait bounds, driven by the server instead of real time: a wait fires once the
 * server holds the latest request silently (a `hang` or `stallAfterBytes` reply still pending) and
 * the wait was not cleared meanwhile. `fired` lists the bound of every wait that fired, in ms.
 */
function heldTimers(fired: number[]) {
  return (server: ModelServer): Timers => {
    const live = new Set<number>();
    let next = 1;
    return {
      set(fn, ms) {
        const id = next++;
        live.add(id);
        const poll = () => {
          if (!live.has(id)) return;
          const latest = server.requests.at(-1);
          if (latest?.outcome !== "pending") return void setTimeout(poll, 5);
          // Held: give the client a moment to read what was sent, then only a wait still open fires.
          setTimeout(() => {
            if (!live.delete(id)) return;
            fired.push(ms);
            fn();
          }, 20);
        };
        setTimeout(poll, 5);
        return id;
      },
      clear: (handle) => live.delete(handle as number),
    };
  };
}

for (const protocol of ["openai-compatible", "anthropic", "openai"] as const) {
  describe(`requestModel over ${protocol}: a provider that goes silent (bounds of 60 s and 120 s, not waited for)`, () => {
    const stalled = "one two three four five six seven eight nine ten";

    it("no headers within 60 s is a timeout, retried like a network failure, then reported by provider and URL", async () => {
      const fired: number[] = [];
      const { result, decisions, requests, sleeps } = await run(
        protocol,
        { rules: [{ reply: { hang: true } }] },
        { config: { retry: { max_attempts: 2 } }, timers: heldTimers(fired) },
      );
      assert.equal(result.status, "failed");
      if (result.status !== "failed") return;
      assert.equal(result.error.class, "timeout");
      assert.match(result.error.message, /^no response from scripted \(http:\/\/127\.0\.0\.1:\d+\/v1\) within 60 s$/);
      assert.deepEqual(fired, [60_000, 60_000]);
      assert.equal(requests, 2);
      assert.deepEqual(sleeps, [750]);
      const retries = decisions.filter((d) => d.seat === "model.retry");
      assert.deepEqual(
        retries.map((d) => [d.holder, d.answer]),
        [
          ["code", { retry: true, delayMs: 750, class: "timeout", attempt: 1 }],
          ["code", { retry: false, class: "timeout", attempt: 2 }],
        ],
      );
    });

    it("a stream that stops before any text is a timeout after 120 s of silence, and retried", async () => {
      const fired: number[] = [];
      const { result, decisions, requests } = await run(
        protocol,
        { rules: [{ reply: [{ text: stalled, stallAfterBytes: 0 }, { text: "Back." }] }] },
        { timers: heldTimers(fired) },
      );
      assert.equal(result.status, "complete");
      assert.equal(result.text, "Back.");
      assert.equal(requests, 2);
      assert.deepEqual(fired, [120_000]);
      expectDecision(decisions, "model.retry", "code", { retry: true, delayMs: 750, class: "timeout", attempt: 1 });
    });

    it("a stream that stalls after text is kept as interrupted, not retried", async () => {
      const fired: number[] = [];
      const { result, decisions, requests } = await run(
        protocol,
        // Past the first text event of each protocol, before the last (Responses sends more before it).
        { rules: [{ reply: { text: stalled, stallAfterBytes: protocol === "openai" ? 2600 : 900 } }] },
        { config: { model_wait: { idle_ms: 5000 } }, timers: heldTimers(fired) },
      );
      assert.equal(result.status, "interrupted");
      if (result.status !== "interrupted") return;
      assert.ok(result.text.length > 0 && stalled.startsWith(result.text) && result.text !== stalled, result.text);
      assert.equal(result.error.class, "timeout");
      assert.match(result.error.message, /^no response from scripted \(.*\): it stopped sending for 5 s$/);
      assert.equal(requests, 1);
      assert.deepEqual(fired, [5000]);
      const decision = expectDecision(decisions, "model.retry", "code", { retry: false, class: "timeout", attempt: 1 });
      assert.equal(decision.reasons.find((r) => r.decisive)?.rule, "output already shown");
    });
  });
}

describe("requestModel: error classes over HTTP", () => {
  const cases: Array<[string, number, string, boolean]> = [
    ["authentication", 401, "authentication", false],
    ["quota", 402, "quota", false],
    ["payload too large", 413, "payload_too_large", false],
    ["server error", 500, "server_error", true],
    ["overloaded", 529, "server_error", true],
    ["invalid request", 400, "invalid_request", false],
  ];
  for (const protocol of ["openai-compatible", "anthropic"] as const) {
    for (const [name, status, cls, retried] of cases) {
      it(`${protocol}: ${name} (${status}) is ${cls}, ${retried ? "retried" : "not retried"}`, async () => {
        const { result, decisions, requests, sleeps } = await run(
          protocol,
          { rules: [{ reply: { error: { status } } }] },
          {
            config: { retry: { max_attempts: 3, max_delay_ms: 10_000 } },
          },
        );
        assert.equal(result.status, "failed");
        if (result.status === "failed") assert.equal(result.error.class, cls);
        assert.equal(requests, retried ? 3 : 1);
        // Equal jitter with random() = 0.5: three quarters of 1000, then of 2000.
        assert.deepEqual(sleeps, retried ? [750, 1500] : []);
        const last = expectDecision(decisions, "model.retry", "code", {
          retry: false,
          class: cls,
          attempt: retried ? 3 : 1,
        });
        assert.equal(last.reasons.find((r) => r.decisive)?.rule, retried ? "attempts used up" : "not retryable");
      });
    }
  }

  it("quota and content policy bodies are their own classes, not retried", async () => {
    const quota = {
      error: {
        message: "You exceeded your current quota, please check your plan and billing details.",
        type: "insufficient_quota",
        code: "insufficient_quota",
      },
    };
    const q = await run("openai-chat", { rules: [{ reply: { error: { status: 429, body: quota } } }] });
    assert.equal(q.result.status === "failed" && q.result.error.class, "quota");
    assert.equal(q.requests, 1);
    const policy = {
      error: {
        message: "Your request was rejected as a result of our safety system.",
        type: "invalid_request_error",
        code: "content_policy_violation",
      },
    };
    const p = await run("openai", { rules: [{ reply: { error: { status: 400, body: policy } } }] });
    assert.equal(p.result.status === "failed" && p.result.error.class, "content_policy");
    const anthropicLimit = await run("anthropic", {
      rules: [{ reply: [{ error: { status: 429 } }, { text: "fine" }] }],
    });
    expectDecision(anthropicLimit.decisions, "model.retry", "code", {
      retry: true,
      delayMs: 750,
      class: "rate_limit",
      attempt: 1,
    });
  });

  it("context overflow bodies of both protocols are context_overflow, not retried", async () => {
    const anthropicBody = {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 208310 tokens > 200000 maximum" },
    };
    const a = await run("anthropic", { rules: [{ reply: { error: { status: 400, body: anthropicBody } } }] });
    assert.equal(a.result.status === "failed" && a.result.error.class, "context_overflow");
    const openaiBody = {
      error: {
        message: "This model's maximum context length is 128000 tokens.",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
    };
    const o = await run("openai-compatible", { rules: [{ reply: { error: { status: 400, body: openaiBody } } }] });
    assert.equal(o.result.status === "failed" && o.result.error.class, "context_overflow");
    assert.equal(o.requests, 1);
  });

  it("a closed port is a network error, retried, then given up", async () => {
    const port = await closedPort();
    const config = configFrom({
      model: "dead/m",
      provider: { dead: { type: "openai-compatible", baseURL: `http://127.0.0.1:${port}/v1` } },
      retry: { max_attempts: 2 },
    });
    const resolution = resolveModel("dead/m", config, {});
    assert.ok(resolution.ok);
    const recorded: string[] = [];
    const result = await requestModel({
      model: resolution.model,
      config,
      messages: [{ role: "user", content: "hi" }],
      record: (d) => recorded.push(`${d.seat}:${JSON.stringify(d.answer)}`),
      sleep: async () => {},
      random: () => 0,
    });
    assert.equal(result.status, "failed");
    if (result.status === "failed") assert.equal(result.error.class, "network");
    assert.equal(recorded.length, 3);
    assert.match(recorded[0] ?? "", /"retry":true,.*"class":"network"/);
    assert.match(recorded[2] ?? "", /^model\.fallback:null/);
  });
});

describe("requestModel: fallback only through the config list", () => {
  const backup = (baseURL: string) => ({ type: "openai-compatible", baseURL, apiKey: "k" });

  it("moves to the next listed model after a failure another model may avoid, recording model.fallback", async () => {
    const server = await startModelServer({
      rules: [{ match: { request: 1 }, reply: { error: { status: 401 } } }, { reply: { text: "from backup" } }],
    });
    try {
      const base = server.configFor("openai-compatible");
      const config = configFrom({
        ...base,
        provider: { ...base.provider, backup: backup(server.baseURL) },
        fallback: ["nope/x", "backup/other-model"],
      });
      const resolution = resolveModel("scripted/test-model", config, {});
      assert.ok(resolution.ok);
      const session = store.create({ directory: dir });
      const result = await requestModel({
        model: resolution.model,
        config,
        messages: [{ role: "user", content: "hi" }],
        record: (d) => recordDecision(store, session.id, d),
        sleep: async () => {},
        random: () => 0,
        env: {},
      });
      assert.equal(result.status, "complete");
      assert.equal(result.text, "from backup");
      assert.equal(result.model.ref, "backup/other-model");
      assert.equal(server.request(2).normalized?.model, "other-model");
      const decisions = readDecisions(store, session.id);
      const fallback = expectDecision(decisions, "model.fallback", "config", "backup/other-model");
      assert.ok(fallback.reasons.some((r) => r.detail === 'nope/x: unknown provider "nope"'));
    } finally {
      await server.close();
    }
  });

  it("without a list the failure stands, and that is recorded", async () => {
    const { result, decisions } = await run("openai-compatible", { rules: [{ reply: { error: { status: 401 } } }] });
    assert.equal(result.status, "failed");
    const decision = expectDecision(decisions, "model.fallback", "config", null);
    assert.equal(decision.reasons.find((r) => r.decisive)?.rule, "no fallback list");
  });

  it("does not fall back on a context overflow", async () => {
    const body = {
      error: {
        message: "maximum context length is 10 tokens",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
    };
    const { result, decisions } = await run(
      "openai-compatible",
      { rules: [{ reply: { error: { status: 400, body } } }] },
      { config: { fallback: ["scripted/other"] } },
    );
    assert.equal(result.status, "failed");
    expectDecision(decisions, "model.fallback", "config", null);
  });
});

describe("requestModel: abort", () => {
  it("cancels a slow request at once", async () => {
    const controller = new AbortController();
    let aborted = 0;
    // Cancelled once the server holds the request (however long a loaded machine took to send it).
    const onServer = (server: ModelServer) => {
      const poll = setInterval(() => {
        if (server.requests.length === 0) return;
        clearInterval(poll);
        aborted = Date.now();
        controller.abort();
      }, 10);
    };
    const { result, requests } = await run(
      "anthropic",
      { rules: [{ reply: { text: "late", delayMs: 10_000 } }] },
      { options: { signal: controller.signal }, onServer },
    );
    assert.equal(result.status, "aborted");
    assert.equal(requests, 1);
    assert.ok(aborted > 0 && Date.now() - aborted < 3000, `took ${Date.now() - aborted} ms after the abort`);
  });

  it("cancels during a retry backoff", async () => {
    const controller = new AbortController();
    const { result, requests } = await run(
      "openai-compatible",
      { rules: [{ reply: { error: { status: 503 } } }] },
      {
        options: {
          signal: controller.signal,
          sleep: (_ms, signal) =>
            new Promise((_resolve, reject) => {
              signal?.addEventListener("abort", () => reject(new Error("aborted")));
              controller.abort();
            }),
        },
      },
    );
    assert.equal(result.status, "aborted");
    assert.equal(requests, 1);
  });
});

describe("usage and cost", () => {
  it("records the tokens of every request and sums them with their cost", async () => {
    const server = await startModelServer({
      rules: [
        {
          reply: [
            { text: "one", usage: { input: 1000, output: 100, cacheRead: 400 } },
            { text: "two", usage: { input: 2000, output: 300 } },
          ],
        },
      ],
    });
    try {
      const base = server.configFor("anthropic");
      const priced = {
        ...base.provider.scripted,
        models: { "test-model": { price: { input: 3, output: 15, cacheRead: 0.3 } } },
      };
      const config = configFrom({ ...base, provider: { scripted: priced } });
      const resolution = resolveModel("scripted/test-model", config, {});
      assert.ok(resolution.ok);
      const session = store.create({ directory: dir });
      for (const content of ["first", "second"]) {
        await requestModel({
          model: resolution.model,
          config,
          messages: [{ role: "user", content }],
          record: (d) => recordDecision(store, session.id, d),
          onUsage: (model, usage) => recordUsage(store, session.id, model, usage),
        });
      }
      const summary = summarizeUsage(store, session.id);
      assert.deepEqual(
        { ...summary, cost: summary.cost.toFixed(6) },
        {
          input: 3000,
          output: 400,
          cacheRead: 400,
          cacheWrite: 0,
          requests: 2,
          costUnknown: 0,
          cost: (2600 * 3e-6 + 400 * 15e-6 + 400 * 0.3e-6).toFixed(6),
        },
      );
      assertNoFailures(server);
    } finally {
      await server.close();
    }
  });
});

describe("privacy", () => {
  it("asks OpenAI's Responses API not to store the conversation", async () => {
    const server = await startModelServer({ rules: [{ reply: { text: "ok" } }] });
    try {
      const config = configFrom(server.configFor("openai"));
      const resolution = resolveModel("scripted/test-model", config, {});
      assert.ok(resolution.ok);
      await requestModel({
        model: resolution.model,
        config,
        messages: [{ role: "user", content: "hi" }],
        record: () => {},
      });
      assert.equal((server.request(1).json as { store?: boolean }).store, false);
    } finally {
      await server.close();
    }
  });
});

// The policy once restated the defaults (`?? 4`, `?? 30_000`); it reads the resolved config now.
describe("retryPolicy", () => {
  it("takes retry.max_attempts and retry.max_delay_ms from config", () => {
    assert.deepEqual(retryPolicy(configFrom({ retry: { max_attempts: 2, max_delay_ms: 700 } })), {
      maxAttempts: 2,
      maxDelayMs: 700,
      baseDelayMs: BASE_DELAY_MS,
    });
  });

  it("takes the defaults table's for whichever key config leaves out", () => {
    assert.deepEqual(retryPolicy(configFrom()), {
      maxAttempts: DEFAULTS.retry.max_attempts,
      maxDelayMs: DEFAULTS.retry.max_delay_ms,
      baseDelayMs: BASE_DELAY_MS,
    });
    assert.equal(retryPolicy(configFrom({ retry: { max_attempts: 1 } })).maxDelayMs, DEFAULTS.retry.max_delay_ms);
  });
});
