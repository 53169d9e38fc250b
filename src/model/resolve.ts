import type { LoadedConfig } from "../config/load.js";
import { closest } from "../util/closest.js";
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
  /**
   * Said to the person when the run starts: a built-in provider's model the catalog does not
   * know is sent as written, but with no context window known compaction cannot trigger.
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
  const model: ResolvedModel = { ref: text, provider, modelId: ref.model, info: info ?? {}, known: info !== undefined };
  if (info === undefined && provider.builtin) model.warning = unknownModelWarning(text, provider.name);
  return { ok: true, model };
}

/** What running a model the catalog does not know means. */
export function unknownModelWarning(ref: string, provider: string): string {
  return `${ref} is not in bosun's catalog: it is sent as written, but its context and output limits and its price are unknown, so compaction cannot trigger and cost is not counted (declare its limits in provider.${provider}.models)`;
}
