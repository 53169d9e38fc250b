/**
 * Every provider failure is sorted into one class, in this one function, so retry, fallback,
 * compaction and the person all see the same answer. Tested against real error bodies of
 * Anthropic, OpenAI and OpenAI-compatible servers (vLLM, llama.cpp, Ollama, OpenRouter).
 */
export const ERROR_CLASSES = [
  "context_overflow",
  "payload_too_large",
  "rate_limit",
  "quota",
  "authentication",
  "content_policy",
  "server_error",
  "network",
  "timeout",
  "invalid_request",
  "aborted",
  "unknown",
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

/** Classes worth another attempt of the same request. */
export const RETRYABLE: ReadonlySet<ErrorClass> = new Set(["rate_limit", "server_error", "network", "timeout"]);

export interface ClassifiedError {
  class: ErrorClass;
  status?: number;
  /** From retry-after / retry-after-ms headers, or "try again in 20s" in the message. */
  retryAfterMs?: number;
  /** The provider's own words, for the person and the model. */
  message: string;
}

interface ErrorLike {
  name?: string;
  message?: string;
  statusCode?: number;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  cause?: unknown;
  code?: string;
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Node's HTTP client gave up waiting on a connected server (its own 300 s limits): no answer, not "cannot connect". */
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

export function classifyError(error: unknown): ClassifiedError {
  const e = unwrap(error);
  const status = e.statusCode ?? e.status;
  const body = e.responseBody ?? "";
  const message = providerMessage(body) ?? e.message ?? String(error);
  const text = `${message} ${body}`.toLowerCase();
  const retryAfterMs = retryAfter(e.responseHeaders, message);
  const result = (cls: ErrorClass): ClassifiedError => ({
    class: cls,
    message,
    ...(status !== undefined ? { status } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });

  if (isAbort(error)) return result("aborted");
  // Before any status: a timeout while reading an error body is still a provider that went silent.
  const silent = timeout(error);
  if (silent) {
    return {
      class: "timeout",
      message: silent,
      ...(status !== undefined ? { status } : {}),
    };
  }
  // No status, or a success status whose body then broke (a stream cut mid-way): not an HTTP answer.
  if (status === undefined || status < 400) {
    if (isNetwork(error)) return result("network");
    return result(contextOverflow(text) ? "context_overflow" : "unknown");
  }
  // Order matters: bodies are more specific than statuses (OpenAI says "quota" with a 429).
  if (contextOverflow(text)) return result("context_overflow");
  if (
    status === 413 ||
    /request_too_large|payload too large|request entity too large|exceeds the maximum allowed number of bytes/.test(
      text,
    )
  ) {
    return result("payload_too_large");
  }
  if (
    /insufficient_quota|exceeded your current quota|credit balance is too low|insufficient credits|billing/.test(
      text,
    ) ||
    status === 402
  ) {
    return result("quota");
  }
  if (
    status === 401 ||
    status === 403 ||
    /invalid_api_key|authentication_error|permission_error|invalid x-api-key|incorrect api key/.test(text)
  ) {
    return result("authentication");
  }
  if (/content_policy|content_filter|safety system|flagged|responsibleaipolicyviolation/.test(text)) {
    return result("content_policy");
  }
  if (status === 429 || /rate_limit|rate limit|too many requests/.test(text)) return result("rate_limit");
  if (status >= 500 || /overloaded/.test(text)) return result("server_error");
  if (status === 408) return result("network");
  if (status >= 400) return result("invalid_request");
  return result("unknown");
}

function contextOverflow(text: string): boolean {
  return /context_length_exceeded|maximum context length|prompt is too long|context window|exceed_context_size|exceeds the available context size|too many tokens|input is too long|reduce the length of the messages|context length/.test(
    text,
  );
}

/** The SDK wraps failures (RetryError, cause chains); the HTTP facts sit on the innermost API error. */
function unwrap(error: unknown): ErrorLike {
  let current = error as ErrorLike | undefined;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current.statusCode !== undefined || current.responseBody !== undefined) return current;
    const last = (current as { lastError?: unknown }).lastError;
    const next = (last ?? current.cause) as ErrorLike | undefined;
    if (!next || typeof next !== "object") break;
    current = next;
  }
  return (error && typeof error === "object" ? error : { message: String(error) }) as ErrorLike;
}

function isAbort(error: unknown): boolean {
  const e = error as ErrorLike | undefined;
  return e?.name === "AbortError";
}

/** The message of a timeout in the cause chain: bosun's own bound (it names the provider), or Node's. */
function timeout(error: unknown): string | undefined {
  let current = error as ErrorLike | undefined;
  for (let depth = 0; depth < 6 && current && typeof current === "object"; depth++) {
    if (current.name === "ModelTimeoutError" && current.message) return current.message;
    if (current.code && TIMEOUT_CODES.has(current.code)) {
      return `no response within the HTTP client's limit (${current.code}: ${current.message ?? "timeout"})`;
    }
    current = current.cause as ErrorLike | undefined;
  }
  return undefined;
}

function isNetwork(error: unknown): boolean {
  let current = error as ErrorLike | undefined;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current.code && NETWORK_CODES.has(current.code)) return true;
    if (
      current.message &&
      /fetch failed|terminated|socket hang up|other side closed|network|cannot connect to api/i.test(current.message)
    ) {
      return true;
    }
    current = current.cause as ErrorLike | undefined;
  }
  return false;
}

/** `{"error":{"message":...}}` (OpenAI and most compatibles), `{"type":"error","error":{...}}` (Anthropic), `{"message":...}` (vLLM). */
function providerMessage(body: string): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    if (typeof parsed.error === "string") return parsed.error;
    return parsed.error?.message ?? parsed.message;
  } catch {
    return body.length > 500 ? `${body.slice(0, 500)}…` : body;
  }
}

function retryAfter(headers: Record<string, string> | undefined, message: string): number | undefined {
  const header = (name: string) => {
    if (!headers) return undefined;
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    return key ? headers[key] : undefined;
  };
  const ms = header("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = header("retry-after");
  if (value) {
    if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  const said = /try again in (\d+(?:\.\d+)?)\s*(ms|s|seconds?)\b/i.exec(message);
  if (said?.[1]) return Number(said[1]) * (said[2]?.toLowerCase() === "ms" ? 1 : 1000);
  return undefined;
}
