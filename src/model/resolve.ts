import type { LoadedConfig } from "../config/load.js";
import { closest } from "../util/closest.js";
import { ASSUMED_LIMITS, BUILTIN_PROVIDERS, type ModelInfo } from "./catalog.js";
import { findProvider, type Provider, usable } from "./providers.js";
import { parseModelRef } from "./ref.js";

/** A model reference that can be called: its provider (with key), its id and what is known of it. */
export interface ResolvedModel {
  ref: string;
  provider: Provider;
  modelId: string;
  info: ModelInfo;
  /** False when neither the catalog nor config knows this model: its limits are assumed. */
  known: boolean;
  /** Which of `info`'s limits are ASSUMED_LIMITS rather than the catalog's or config's. */
  assumed?: ("context" | "output")[];
  /**
   * Said to the person when the run starts: a built-in provider's model the catalog does not
   * know is sent as written, with assumed limits and no price.
   */
  warning?: string;
}

export type Resolution = { ok: true; model: ResolvedModel } | { ok: false; problem: string; fix: string };

/** Resolves "provider/model" without any fallback: either exactly that model, or why not and how to fix it. */
export function resolveModel(text: string, loaded: LoadedConfig, env: NodeJS.ProcessEnv = process.env): Resolution {
  const ref = parseModelRef(text);
  if (!ref) {
    return {
      ok: false,
      problem: `"${text}" is not a model reference`,
      fix: 'write it as "provider/model", e.g. "anthropic/claude-sonnet-4-5"',
    };
  }
  const provider = findProvider(ref.provider, loaded, env);
  if (!provider) {
    const known = [...new Set([...Object.keys(loaded.config.provider ?? {}), ...Object.keys(BUILTIN_PROVIDERS)])];
    return {
      ok: false,
      problem: `unknown provider "${ref.provider}"`,
      fix: `use one of ${known.join(", ")}, or add provider.${ref.provider} to bosun.json`,
    };
  }
  if (provider.problem) return { ok: false, problem: provider.problem, fix: "fix the provider's config" };
  if (!usable(provider)) {
    return {
      ok: false,
      problem: `provider "${provider.name}" has no API key`,
      fix: provider.credentials.source.replace(/^missing: /, ""),
    };
  }
  const info = provider.models[ref.model];
  if (info === undefined && provider.closed) {
    // A provider that lists its models: an id it does not list is a misspelling, not a new model.
    const ids = Object.keys(provider.models);
    const [near] = closest(ref.model, ids, 1);
    return {
      ok: false,
      problem: `provider ${provider.name} has no model ${ref.model}; its models: ${ids.join(", ")}${near ? ` (did you mean ${near}?)` : ""}`,
      fix: `use ${near ? `${provider.name}/${near}` : "one of them"}, add provider.${provider.name}.models["${ref.model}"], or set provider.${provider.name}.any_model: true`,
    };
  }
  const model: ResolvedModel = {
    ref: text,
    provider,
    modelId: ref.model,
    ...withAssumedLimits(info),
    known: info !== undefined,
  };
  if (info === undefined && provider.builtin) model.warning = unknownModelWarning(text, provider.name);
  return { ok: true, model };
}

/**
 * A limit nobody gave is assumed (ASSUMED_LIMITS), so compaction still triggers before the real
 * window overflows; a limit config or the catalog gives is kept. Price is never assumed.
 */
function withAssumedLimits(info: ModelInfo | undefined): { info: ModelInfo; assumed?: ("context" | "output")[] } {
  const out: ModelInfo = { ...info };
  const assumed: ("context" | "output")[] = [];
  if (out.context === undefined) {
    out.context = ASSUMED_LIMITS.context;
    assumed.push("context");
  }
  if (out.output === undefined) {
    out.output = ASSUMED_LIMITS.output;
    assumed.push("output");
  }
  return assumed.length > 0 ? { info: out, assumed } : { info: out };
}

/**
 * The output limit a request may carry as maxOutputTokens: the catalog's or config's. An assumed
 * one (ASSUMED_LIMITS) is only the compaction reserve, never a cap sent — it could cut off a model
 * that writes more, and the provider knows its own limit.
 */
export function maxOutputOf(model: Pick<ResolvedModel, "info" | "assumed">): { maxOutputTokens?: number } {
  const output = model.info.output;
  return output && !model.assumed?.includes("output") ? { maxOutputTokens: output } : {};
}

/** What running a model the catalog does not know means. */
export function unknownModelWarning(ref: string, provider: string): string {
  return `${ref} is not in bosun's catalog: it is sent as written, with assumed limits (context ${ASSUMED_LIMITS.context}, output ${ASSUMED_LIMITS.output} tokens, so compaction may start early) and no price, so cost is not counted (declare its limits and price in provider.${provider}.models)`;
}
