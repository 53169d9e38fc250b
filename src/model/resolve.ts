import type { LoadedConfig } from "../config/load.js";
import { BUILTIN_PROVIDERS, type ModelInfo } from "./catalog.js";
import { findProvider, type Provider, usable } from "./providers.js";
import { parseModelRef } from "./ref.js";

/** A model reference that can be called: its provider (with key), its id and what is known of it. */
export interface ResolvedModel {
  ref: string;
  provider: Provider;
  modelId: string;
  info: ModelInfo;
  /** False when neither the catalog nor config knows this model: its limits are unknown. */
  known: boolean;
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
  return { ok: true, model: { ref: text, provider, modelId: ref.model, info: info ?? {}, known: info !== undefined } };
}
