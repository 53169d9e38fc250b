import { DEFAULTS } from "../config/defaults.js";
import type { LoadedConfig } from "../config/load.js";
import type { ResolvedModel } from "./resolve.js";

/** How long bosun waits on a provider: to the response headers, and between two body chunks. */
export interface WaitLimits {
  timeoutMs: number;
  idleMs: number;
}

/** The built-in bounds (config `model_wait`): 60 s to the headers, 120 s between chunks. */
export const DEFAULT_WAIT: WaitLimits = {
  timeoutMs: DEFAULTS.model_wait.timeout_ms,
  idleMs: DEFAULTS.model_wait.idle_ms,
};

/** The timers a bounded fetch uses; tests pass fake ones so no test waits for real. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * A provider that accepted the request and then said nothing for too long. Its message is what
 * the person reads, so it names the provider and where it was asked; classified as `timeout`.
 */
export class ModelTimeoutError extends Error {
  override name = "ModelTimeoutError";
  constructor(
    /** `headers`: nothing came back at all; `idle`: the body stopped between two chunks. */
    readonly phase: "headers" | "idle",
    readonly ms: number,
    readonly provider: string,
    readonly url: string,
  ) {
    super(
      phase === "headers"
        ? `no response from ${provider} (${url}) within ${seconds(ms)}`
        : `no response from ${provider} (${url}): it stopped sending for ${seconds(ms)}`,
    );
  }
}

/** 60000 → "60 s", 500 → "0.5 s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 1000 ? 2 : 1))} s`;
}

/**
 * The limits for one model, the most specific setting first: `provider.<p>.models.<m>`, then
 * `provider.<p>`, then `model_wait` (which holds the built-in defaults unless a layer set it).
 */
export function waitLimits(model: ResolvedModel, loaded: LoadedConfig): WaitLimits {
  const provider = loaded.config.provider?.[model.provider.name];
  const own = provider?.models?.[model.modelId];
  const global = loaded.config.model_wait;
  return {
    timeoutMs: own?.timeout_ms ?? provider?.timeout_ms ?? global.timeout_ms,
    idleMs: own?.idle_ms ?? provider?.idle_ms ?? global.idle_ms,
  };
}

export interface BoundedFetchOptions {
  limits: WaitLimits;
  /** For the message: the provider's name, and its base URL when configured (else the request's origin). */
  provider: string;
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
  timers?: Timers;
}

/**
 * A fetch for the AI SDK providers that never waits without a bound: the response headers must
 * come within `timeoutMs`, and each body chunk within `idleMs` of asking for it (a consumer that
 * reads slowly is not the provider's fault, so the idle timer runs only while a read is pending).
 * The caller's abort still ends it at once.
 */
export function boundedFetch(options: BoundedFetchOptions): typeof globalThis.fetch {
  const base = options.fetch ?? globalThis.fetch;
  const timers = options.timers ?? realTimers;
  const { timeoutMs, idleMs } = options.limits;
  return async (input, init) => {
    const url = options.baseURL ?? origin(input);
    const outer = init?.signal ?? undefined;
    const inner = new AbortController();
    const forward = () => inner.abort(outer?.reason);
    const release = () => outer?.removeEventListener("abort", forward);
    if (outer?.aborted) forward();
    else outer?.addEventListener("abort", forward, { once: true });

    let timer: unknown;
    const late = new Promise<never>((_, reject) => {
      timer = timers.set(() => {
        const error = new ModelTimeoutError("headers", timeoutMs, options.provider, url);
        reject(error);
        inner.abort(error);
      }, timeoutMs);
    });
    let response: Response;
    try {
      response = await Promise.race([base(input, { ...init, signal: inner.signal }), late]);
    } catch (error) {
      release();
      throw error;
    } finally {
      timers.clear(timer);
    }
    if (!response.body) {
      release();
      return response;
    }
    const idle = () => new ModelTimeoutError("idle", idleMs, options.provider, url);
    const body = idleBounded(response.body, idleMs, timers, idle, (error) => {
      release();
      if (error) inner.abort(error);
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The body, failing with `timeout()` when a pending read gets nothing for `ms`. */
function idleBounded(
  body: ReadableStream<Uint8Array>,
  ms: number,
  timers: Timers,
  timeout: () => Error,
  done: (error?: Error) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let timer: unknown;
        const quiet = new Promise<never>((_, reject) => {
          timer = timers.set(() => reject(timeout()), ms);
        });
        try {
          const chunk = await Promise.race([reader.read(), quiet]);
          if (chunk.done) {
            done();
            controller.close();
          } else controller.enqueue(chunk.value);
        } catch (error) {
          if (error instanceof ModelTimeoutError) {
            done(error);
            reader.cancel(error).catch(() => {});
          } else done();
          controller.error(error);
        } finally {
          timers.clear(timer);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    },
    // Pull only when the consumer reads: the idle timer measures the provider, not the reader.
    { highWaterMark: 0 },
  );
}

function origin(input: string | URL | Request): string {
  const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  try {
    return new URL(href).origin;
  } catch {
    return href;
  }
}
