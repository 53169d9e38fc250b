import type { LanguageModel } from "ai";
import { buildMoreModel } from "./create-more.js";
import type { ResolvedModel } from "./resolve.js";
import { boundedFetch, DEFAULT_WAIT, type Timers, type WaitLimits } from "./wait.js";

/** The models built so far, per resolved reference and wait limits: a provider model holds no state between requests. */
const built = new WeakMap<ResolvedModel, Map<string, Promise<LanguageModel>>>();

/**
 * The AI SDK model for a resolved reference, built once per session's reference and limits:
 * building one compiles the provider's response schemas, which a step should not pay for again.
 * Provider packages are imported only when a model of theirs is used, so start-up never pays for
 * all four. Every request goes through a fetch bounded by `limits` (time to the headers, silence
 * between chunks). Given `timers` (tests), a model of its own.
 */
export function createLanguageModel(
  resolved: ResolvedModel,
  limits: WaitLimits = DEFAULT_WAIT,
  timers?: Timers,
): Promise<LanguageModel> {
  if (timers) return buildLanguageModel(resolved, limits, timers);
  const key = `${limits.timeoutMs}/${limits.idleMs}`;
  const byLimits = built.get(resolved) ?? new Map<string, Promise<LanguageModel>>();
  built.set(resolved, byLimits);
  const known = byLimits.get(key);
  if (known) return known;
  const made = buildLanguageModel(resolved, limits);
  byLimits.set(key, made);
  // A model that could not be built (its package missing) is tried again next time, not remembered.
  made.catch(() => byLimits.delete(key));
  return made;
}

async function buildLanguageModel(
  resolved: ResolvedModel,
  limits: WaitLimits,
  timers?: Timers,
): Promise<LanguageModel> {
  const { provider, modelId } = resolved;
  const fetch = boundedFetch({
    limits,
    provider: provider.name,
    ...(provider.baseURL ? { baseURL: provider.baseURL } : {}),
    ...(timers ? { timers } : {}),
  });
  const common = {
    fetch,
    ...(provider.apiKey ? { apiKey: provider.apiKey } : {}),
    ...(provider.baseURL ? { baseURL: provider.baseURL } : {}),
    ...(provider.headers ? { headers: provider.headers } : {}),
  };
  switch (provider.type) {
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      return createAnthropic(common)(modelId);
    }
    case "openai": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      const openai = createOpenAI(common);
      return provider.api === "chat" ? openai.chat(modelId) : openai(modelId);
    }
    case "google": {
      const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
      return createGoogleGenerativeAI(common)(modelId);
    }
    case "openai-compatible": {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      if (!provider.baseURL) throw new Error(`provider ${provider.name} has no baseURL`);
      return createOpenAICompatible({
        name: provider.name,
        includeUsage: true,
        ...common,
        baseURL: provider.baseURL,
      }).chatModel(modelId);
    }
    default:
      return buildMoreModel(provider, modelId, common);
  }
}
