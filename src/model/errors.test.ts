import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { APICallError } from "ai";
import { classifyError, type ErrorClass } from "./errors.js";

/** An error exactly as the AI SDK raises it for an HTTP failure. */
function httpError(status: number, body: unknown, headers: Record<string, string> = {}): APICallError {
  const responseBody = typeof body === "string" ? body : JSON.stringify(body);
  return new APICallError({
    message: `HTTP ${status}`,
    url: "https://api.example.invalid/v1/x",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    responseBody,
  });
}

const anthropic = (type: string, message: string) => ({ type: "error", error: { type, message } });
const openai = (message: string, type: string, code: string | null = null) => ({
  error: { message, type, param: null, code },
});

const cases: Array<[string, APICallError, ErrorClass]> = [
  // Anthropic
  [
    "anthropic prompt too long",
    httpError(400, anthropic("invalid_request_error", "prompt is too long: 208310 tokens > 200000 maximum")),
    "context_overflow",
  ],
  [
    "anthropic request too large",
    httpError(413, anthropic("request_too_large", "Request exceeds the maximum allowed number of bytes.")),
    "payload_too_large",
  ],
  [
    "anthropic rate limit",
    httpError(429, anthropic("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"), {
      "retry-after": "7",
    }),
    "rate_limit",
  ],
  ["anthropic overloaded", httpError(529, anthropic("overloaded_error", "Overloaded")), "server_error"],
  ["anthropic api error", httpError(500, anthropic("api_error", "Internal server error")), "server_error"],
  ["anthropic bad key", httpError(401, anthropic("authentication_error", "invalid x-api-key")), "authentication"],
  [
    "anthropic permission",
    httpError(
      403,
      anthropic("permission_error", "Your API key does not have permission to use the specified resource."),
    ),
    "authentication",
  ],
  [
    "anthropic credit",
    httpError(
      400,
      anthropic(
        "invalid_request_error",
        "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
      ),
    ),
    "quota",
  ],
  [
    "anthropic bad request",
    httpError(400, anthropic("invalid_request_error", 'messages: roles must alternate between "user" and "assistant"')),
    "invalid_request",
  ],
  // OpenAI
  [
    "openai context length",
    httpError(
      400,
      openai(
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
        "invalid_request_error",
        "context_length_exceeded",
      ),
    ),
    "context_overflow",
  ],
  [
    "openai rate limit",
    httpError(
      429,
      openai(
        "Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2.5s.",
        "tokens",
        "rate_limit_exceeded",
      ),
    ),
    "rate_limit",
  ],
  [
    "openai quota",
    httpError(
      429,
      openai(
        "You exceeded your current quota, please check your plan and billing details.",
        "insufficient_quota",
        "insufficient_quota",
      ),
    ),
    "quota",
  ],
  [
    "openai bad key",
    httpError(
      401,
      openai(
        "Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys.",
        "invalid_request_error",
        "invalid_api_key",
      ),
    ),
    "authentication",
  ],
  [
    "openai content policy",
    httpError(
      400,
      openai(
        "Your request was rejected as a result of our safety system.",
        "invalid_request_error",
        "content_policy_violation",
      ),
    ),
    "content_policy",
  ],
  [
    "openai server error",
    httpError(500, openai("The server had an error while processing your request. Sorry about that!", "server_error")),
    "server_error",
  ],
  [
    "openai overloaded",
    httpError(503, openai("The engine is currently overloaded, please try again later", "server_error")),
    "server_error",
  ],
  [
    "openai unknown param",
    httpError(400, openai("Unrecognized request argument supplied: foo", "invalid_request_error")),
    "invalid_request",
  ],
  ["openai too large", httpError(413, "<html><body>413 Request Entity Too Large</body></html>"), "payload_too_large"],
  // OpenAI-compatible servers
  [
    "vllm context",
    httpError(400, {
      object: "error",
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
      type: "BadRequestError",
      param: null,
      code: 400,
    }),
    "context_overflow",
  ],
  [
    "llama.cpp context",
    httpError(400, {
      error: {
        code: 400,
        message: "the request exceeds the available context size, try increasing it",
        type: "exceed_context_size_error",
        n_prompt_tokens: 9000,
        n_ctx: 8192,
      },
    }),
    "context_overflow",
  ],
  [
    "ollama model missing",
    httpError(404, {
      error: { message: 'model "llama3" not found, try pulling it first', type: "api_error", param: null, code: null },
    }),
    "invalid_request",
  ],
  [
    "openrouter credits",
    httpError(402, {
      error: { code: 402, message: "Insufficient credits. Add more using https://openrouter.ai/credits" },
    }),
    "quota",
  ],
  [
    "openrouter rate limit",
    httpError(429, { error: { code: 429, message: "Rate limit exceeded: free-models-per-min." } }),
    "rate_limit",
  ],
  ["gateway timeout", httpError(504, "upstream request timeout"), "server_error"],
  ["request timeout", httpError(408, ""), "network"],
];

describe("classifyError against real provider error bodies", () => {
  for (const [name, error, expected] of cases) {
    it(`${name} → ${expected}`, () => {
      const classified = classifyError(error);
      assert.equal(classified.class, expected);
      assert.equal(classified.status, error.statusCode);
      assert.ok(classified.message.length > 0);
    });
  }

  it("uses the provider's own message, not the SDK's", () => {
    const classified = classifyError(httpError(401, anthropic("authentication_error", "invalid x-api-key")));
    assert.equal(classified.message, "invalid x-api-key");
  });
});

describe("classifyError for failures without an HTTP status", () => {
  const withCause = (message: string, code: string) =>
    Object.assign(new TypeError(message), { cause: Object.assign(new Error(code), { code }) });

  it("network: refused, reset, DNS, and a socket closed mid-stream", () => {
    assert.equal(classifyError(withCause("fetch failed", "ECONNREFUSED")).class, "network");
    assert.equal(classifyError(withCause("fetch failed", "ECONNRESET")).class, "network");
    assert.equal(classifyError(withCause("fetch failed", "ENOTFOUND")).class, "network");
    assert.equal(classifyError(new TypeError("terminated")).class, "network");
  });

  it("timeout, never network: Node's own headers and body timeouts, as the SDK wraps them", () => {
    // What the SDK makes of fetch's TypeError("fetch failed") whose cause is undici's HeadersTimeoutError.
    const headers = new APICallError({
      message: "Cannot connect to API: Headers Timeout Error",
      url: "https://api.example.invalid/v1/x",
      requestBodyValues: {},
      cause: Object.assign(new Error("Headers Timeout Error"), {
        name: "HeadersTimeoutError",
        code: "UND_ERR_HEADERS_TIMEOUT",
      }),
      isRetryable: true,
    });
    const classified = classifyError(headers);
    assert.equal(classified.class, "timeout");
    assert.doesNotMatch(classified.message, /cannot connect/i);
    assert.match(classified.message, /^no response within the HTTP client's limit \(UND_ERR_HEADERS_TIMEOUT/);
    // A body that stopped: fetch's reader fails with TypeError("terminated") caused by BodyTimeoutError.
    const body = Object.assign(new TypeError("terminated"), {
      cause: Object.assign(new Error("Body Timeout Error"), { code: "UND_ERR_BODY_TIMEOUT" }),
    });
    assert.equal(classifyError(body).class, "timeout");
    // A TCP connect that timed out did not connect: that stays network.
    assert.equal(classifyError(withCause("fetch failed", "UND_ERR_CONNECT_TIMEOUT")).class, "network");
  });

  it("aborted", () => {
    assert.equal(
      classifyError(Object.assign(new Error("This operation was aborted"), { name: "AbortError" })).class,
      "aborted",
    );
  });

  it("unknown for anything else", () => {
    assert.equal(classifyError(new Error("something odd")).class, "unknown");
    assert.equal(classifyError("a string").class, "unknown");
  });

  it("finds the HTTP error inside a wrapper's cause or lastError", () => {
    const inner = httpError(429, openai("Rate limit reached", "requests", "rate_limit_exceeded"));
    assert.equal(classifyError(Object.assign(new Error("wrapped"), { cause: inner })).class, "rate_limit");
    assert.equal(classifyError(Object.assign(new Error("retry error"), { lastError: inner })).class, "rate_limit");
  });
});

describe("retry-after", () => {
  it("reads seconds, milliseconds and HTTP dates from headers", () => {
    assert.equal(classifyError(httpError(429, "", { "retry-after": "7" })).retryAfterMs, 7000);
    assert.equal(classifyError(httpError(429, "", { "Retry-After": "1.5" })).retryAfterMs, 1500);
    assert.equal(classifyError(httpError(429, "", { "retry-after-ms": "250", "retry-after": "9" })).retryAfterMs, 250);
    const date = new Date(Date.now() + 60_000).toUTCString();
    const fromDate = classifyError(httpError(503, "", { "retry-after": date })).retryAfterMs ?? 0;
    assert.ok(fromDate > 55_000 && fromDate <= 60_000, String(fromDate));
  });

  it("reads OpenAI's 'try again in' from the message", () => {
    const error = httpError(
      429,
      openai("Rate limit reached ... Please try again in 2.5s.", "tokens", "rate_limit_exceeded"),
    );
    assert.equal(classifyError(error).retryAfterMs, 2500);
    const ms = httpError(
      429,
      openai("Rate limit reached ... Please try again in 120ms.", "tokens", "rate_limit_exceeded"),
    );
    assert.equal(classifyError(ms).retryAfterMs, 120);
  });

  it("is absent when nothing says", () => {
    assert.equal(classifyError(httpError(500, "")).retryAfterMs, undefined);
  });
});
