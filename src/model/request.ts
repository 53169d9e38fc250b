import type { FinishReason, LanguageModel } from "ai";
import type { LoadedConfig } from "../config/load.js";
import type { Decision } from "../contracts/decisions.js";
import { BASE_DELAY_MS } from "../contracts/retry.js";
import type { ModelToolCall } from "../contracts/tool-calls.js";
import { type AttemptInput, type ReasoningPart, streamAttempt } from "./attempt.js";
import { cacheKindOf } from "./cache-plan.js";
import { createLanguageModel } from "./create.js";
import type { ClassifiedError } from "./errors.js";
import { decideFallback } from "./fallback.js";
import { decideModelOptions, type ModelOptionsAnswer } from "./reasoning.js";
import type { ResolvedModel } from "./resolve.js";
import { decideRetry, type RetryPolicy } from "./retry.js";
import type { Usage } from "./usage.js";
import { type Timers, type WaitLimits, waitLimits } from "./wait.js";

export interface RequestOptions extends Omit<AttemptInput, "model" | "reasoning"> {
  model: ResolvedModel;
  config: LoadedConfig;
  /** Appends a decision to the ledger (model.retry, model.fallback). */
  record: (decision: Decision) => void;
  /** The step this request belongs to, for the decisions' subject. */
  step?: number;
  /** Injected in tests so backoff costs no real time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  createModel?: (model: ResolvedModel, limits: WaitLimits, timers?: Timers) => Promise<LanguageModel>;
  /** Injected in tests: the timers that bound the wait for headers and between chunks. */
  timers?: Timers;
  /**
   * Told when an attempt starts waiting for the model (`true`) and when the wait ends: its first
   * output, or its end (`false`). The TUI shows the elapsed seconds meanwhile.
   */
  onWait?: (waiting: boolean) => void;
  env?: NodeJS.ProcessEnv;
  /**
   * A session's step: the reasoning options of the agent or model are sent (seat `model.options`,
   * decided for the model that answers, which a fallback may change), and told to `onOptions`
   * to record. A one-off request (a title, a summary) sends none.
   */
  options?: { agent?: string; onOptions: (model: ResolvedModel, decision: ModelOptionsAnswer) => void };
  /** Told of the tokens every attempt used (failed ones too: the provider may bill them). */
  onUsage?: (model: ResolvedModel, usage: Usage) => void;
}

interface Partial {
  model: ResolvedModel;
  text: string;
  /** The model's reasoning parts, to keep in the session and send back (attempt.ts). */
  reasoning?: ReasoningPart[];
  toolCalls: ModelToolCall[];
  attempts: number;
}

export type RequestResult =
  | (Partial & { status: "complete"; finishReason: FinishReason; usage: Usage })
  /** The stream broke after output was shown: kept, not retried. */
  | (Partial & { status: "interrupted"; error: ClassifiedError; usage?: Usage })
  | (Partial & { status: "failed"; error: ClassifiedError })
  | (Partial & { status: "aborted" });

export function retryPolicy(config: LoadedConfig): RetryPolicy {
  return {
    maxAttempts: config.config.retry.max_attempts,
    maxDelayMs: config.config.retry.max_delay_ms,
    baseDelayMs: BASE_DELAY_MS,
  };
}

/**
 * One model request with bosun's recovery: retries decided by seat `model.retry`, then a switch
 * to the next model only through seat `model.fallback` (the config list). Abort ends it at once.
 */
export async function requestModel(options: RequestOptions): Promise<RequestResult> {
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const create = options.createModel ?? createLanguageModel;
  const policy = retryPolicy(options.config);
  const tried = new Set<string>();
  let current = options.model;
  let attempts = 0;

  for (;;) {
    tried.add(current.ref);
    const languageModel = await create(current, waitLimits(current, options.config), options.timers);
    const settled = options.options ? decideModelOptions(options.config, current, options.options.agent) : undefined;
    if (settled) options.options?.onOptions(current, settled.decision);
    for (let attempt = 1; ; attempt++) {
      attempts++;
      let waiting = true;
      const endWait = () => {
        if (waiting) options.onWait?.(false);
        waiting = false;
      };
      options.onWait?.(true);
      const outcome = await streamAttempt({
        ...options,
        model: languageModel,
        // Only a session's steps are cached (a one-off request would pay the cache write for nothing);
        // the model answering now says how its provider caches (a fallback may be another provider).
        ...(options.cache ? { cache: { ...options.cache, kind: cacheKindOf(current.provider) } } : {}),
        ...(settled?.sent ? { reasoning: settled.sent } : {}),
        onEvent: (event) => {
          endWait();
          options.onEvent?.(event);
        },
      }).finally(endWait);
      if (outcome.usage) options.onUsage?.(current, outcome.usage);
      const base = {
        model: current,
        text: outcome.text,
        reasoning: outcome.reasoning,
        toolCalls: outcome.toolCalls,
        attempts,
      };
      if (outcome.status === "complete") {
        return { ...base, status: "complete", finishReason: outcome.finishReason, usage: outcome.usage };
      }
      if (outcome.error.class === "aborted") return { ...base, status: "aborted" };
      const subject = { ...(options.step !== undefined ? { step: options.step } : {}), model: current.ref, attempt };
      const retry = decideRetry({ error: outcome.error, attempt, outputShown: outcome.outputShown, policy, random });
      options.record({ seat: "model.retry", ...retry, subject });
      if (outcome.outputShown) {
        return {
          ...base,
          status: "interrupted",
          error: outcome.error,
          ...(outcome.usage ? { usage: outcome.usage } : {}),
        };
      }
      if (retry.answer.retry) {
        try {
          await sleep(retry.answer.delayMs ?? 0, options.signal);
        } catch {
          return { ...base, status: "aborted" };
        }
        if (options.signal?.aborted) return { ...base, status: "aborted" };
        continue;
      }
      const fallback = decideFallback({
        failed: current.ref,
        errorClass: outcome.error.class,
        config: options.config,
        tried,
        ...(options.env ? { env: options.env } : {}),
      });
      options.record({
        seat: "model.fallback",
        holder: fallback.holder,
        answer: fallback.answer,
        reasons: fallback.reasons,
        subject,
      });
      if (!fallback.answer || !fallback.resolved) return { ...base, status: "failed", error: outcome.error };
      current = fallback.resolved;
      break;
    }
  }
}

/** Resolves after `ms`, or rejects as soon as the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
