import data from "./catalog-data.json" with { type: "json" };
import type { CatalogData, CatalogEntry } from "./catalog-schema.js";
import { TYPE_FACTS } from "./provider-types.js";

/**
 * What bosun knows about models without being told: the built-in providers, where their keys
 * come from and their default model (here), and limits, capabilities and prices of their models
 * (catalog-data.json, refreshed by scripts/refresh-catalog.ts). Config (`provider.<name>.models`)
 * overrides any of it; a model missing here is still usable, with assumed limits (ASSUMED_LIMITS),
 * and that is recorded when it is selected.
 */
export type ProviderType =
  | "anthropic"
  | "openai"
  | "openai-compatible"
  | "google"
  | "azure"
  | "bedrock"
  | "vertex"
  | "openrouter"
  | "npm";

export interface ModelInfo {
  /** Context window in tokens. */
  context?: number;
  /** Maximum output tokens per response. */
  output?: number;
  /** How it takes tools: true/"native" as the provider's tool definitions, "text" described in the prompt (calls read from its text), false/"none" not at all. */
  tools?: boolean | "native" | "text" | "none";
  images?: boolean;
  /**
   * Whether the model thinks before answering: the catalog's `reasoning` flag. Not config's
   * `reasoning`, which is what it is asked to do (model/reasoning.ts) and merges here unread.
   */
  thinks?: boolean;
  /** What the model reads and writes, e.g. ["text", "image", "pdf"]; from the catalog. */
  modalities?: { input: string[]; output: string[] };
  /** How the model changes part of a file (seat context.tools): unset, chosen by its id. */
  edit_tool?: "edit" | "apply_patch";
  /** US dollars per million tokens. */
  price?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
}

export interface BuiltinProvider {
  type: ProviderType;
  /** Environment variables that hold the API key, first found wins. */
  keyVariables: readonly string[];
  defaultModel: string;
  models: Readonly<Record<string, ModelInfo>>;
}

/**
 * The limits a model nobody described is run with. 32k context: the smallest window of the
 * models people run through an OpenAI-compatible server today (Llama 3.x and Qwen builds ship
 * with 32k-128k; a model with more only compacts early, which costs a summary, while assuming too
 * much makes the request fail once the history outgrows the real window). 4k output: what every
 * such model can write in one response, and small enough that the reserve leaves room to work.
 * Config limits (`provider.<name>.models.<id>`) replace them.
 */
export const ASSUMED_LIMITS: Readonly<{ context: number; output: number }> = { context: 32_000, output: 4_096 };

const catalog = data as CatalogData;

/** When and from where the model facts were taken. */
export const CATALOG_DATE: string = catalog.updated;
export const CATALOG_SOURCE: string = catalog.source;

const converted = new Map<string, Readonly<Record<string, ModelInfo>>>();

/**
 * The catalog's models of one provider, converted once on first use (a run asks for one
 * provider; `bosun models` for all). A provider the data file has and bosun does not (added by
 * a newer refresh) is ignored; one bosun has and the file lacks has no models, so each of its
 * ids is run with assumed limits.
 */
export function catalogModels(provider: string): Readonly<Record<string, ModelInfo>> {
  let models = converted.get(provider);
  if (models) return models;
  const entries = Object.hasOwn(catalog.providers, provider) ? catalog.providers[provider]?.models : undefined;
  models = Object.fromEntries(Object.entries(entries ?? {}).map(([id, entry]) => [id, toModelInfo(entry)]));
  converted.set(provider, models);
  return models;
}

/** models.dev's shape (limit, cost, modalities, tool_call, reasoning) as bosun's ModelInfo. */
export function toModelInfo(entry: CatalogEntry): ModelInfo {
  const info: ModelInfo = {};
  if (entry.limit?.context) info.context = entry.limit.context;
  if (entry.limit?.output) info.output = entry.limit.output;
  if (entry.tool_call !== undefined) info.tools = entry.tool_call;
  if (entry.reasoning !== undefined) info.thinks = entry.reasoning;
  if (entry.modalities) {
    info.modalities = { input: [...entry.modalities.input], output: [...entry.modalities.output] };
    info.images = entry.modalities.input.includes("image");
  }
  const cost = entry.cost;
  if (cost && cost.input !== undefined && cost.output !== undefined) {
    info.price = { input: cost.input, output: cost.output };
    if (cost.cache_read !== undefined) info.price.cacheRead = cost.cache_read;
    if (cost.cache_write !== undefined) info.price.cacheWrite = cost.cache_write;
  }
  return info;
}

/**
 * A provider's facts with its models read from the data file only when asked for. Its key
 * variables are its type's (provider-types.ts), so they are written in one place.
 */
function builtin(name: string, facts: { type: ProviderType; defaultModel: string }): BuiltinProvider {
  return {
    ...facts,
    keyVariables: TYPE_FACTS[facts.type].keyVariables,
    get models() {
      return catalogModels(name);
    },
  };
}

export const BUILTIN_PROVIDERS: Readonly<Record<string, BuiltinProvider>> = {
  anthropic: builtin("anthropic", {
    type: "anthropic",
    defaultModel: "claude-sonnet-4-5",
  }),
  openai: builtin("openai", { type: "openai", defaultModel: "gpt-5" }),
  google: builtin("google", {
    type: "google",
    defaultModel: "gemini-2.5-pro",
  }),
  // Providers reached by their own SDKs; their models are named as the provider names them.
  openrouter: builtin("openrouter", {
    type: "openrouter",
    defaultModel: "anthropic/claude-sonnet-4.5",
  }),
  bedrock: builtin("bedrock", {
    type: "bedrock",
    defaultModel: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
  }),
  vertex: builtin("vertex", {
    type: "vertex",
    defaultModel: "gemini-2.5-pro",
  }),
};

/**
 * Types whose endpoint is always one service (Azure OpenAI, Bedrock, Vertex, OpenRouter): the
 * service's catalog applies to any provider of the type, e.g. a second Bedrock account in another
 * region. Not anthropic, openai or google: a provider of those types that is not the built-in one
 * is usually a proxy or gateway serving models of its own. An Azure deployment is found by its
 * name, so its facts apply when the deployment is named as the model (Azure's default).
 */
export const SERVICE_TYPES: ReadonlySet<ProviderType> = new Set(["azure", "bedrock", "vertex", "openrouter"]);

/** The catalog's models for a provider: a built-in's own, else its service type's, else none. */
export function catalogFor(name: string, type: ProviderType | undefined): Readonly<Record<string, ModelInfo>> {
  const builtin = Object.hasOwn(BUILTIN_PROVIDERS, name) ? BUILTIN_PROVIDERS[name] : undefined;
  if (builtin) return builtin.models;
  return type && SERVICE_TYPES.has(type) ? catalogModels(type) : {};
}
