import type { LoadedConfig } from "../config/load.js";
import { BUILTIN_PROVIDERS, type ModelInfo, type ProviderType } from "./catalog.js";

/** A provider as bosun will use it: built-in facts merged with config. Holds the key; never print it. */
export interface Provider {
  name: string;
  type?: ProviderType;
  api?: "responses" | "chat";
  baseURL?: string;
  /** Where `baseURL` came from: the config key and file, or the environment variable the provider's SDK reads. */
  baseURLSource?: string;
  headers?: Record<string, string>;
  apiKey?: string;
  credentials: Credentials;
  defaultModel?: string;
  models: Record<string, ModelInfo>;
  /**
   * Whether an id not in `models` is refused (a misspelling, exit 2): a configured provider that
   * lists its models, unless it sets `any_model`. A built-in provider is never closed — the
   * catalog lags behind what it serves — nor one that lists no models (local servers name them freely).
   */
  closed: boolean;
  /** Set when the provider cannot be used at all, e.g. no type can be told. */
  problem?: string;
  builtin: boolean;
  configured: boolean;
}

export interface Credentials {
  present: boolean;
  /** Where the key came from, or what would supply it. Never the key itself. */
  source: string;
  /** False for local servers that need no key (an openai-compatible provider with no apiKey). */
  needed: boolean;
}

/** Configured providers first (in config order), then the remaining built-ins. */
export function listProviders(loaded: LoadedConfig, env: NodeJS.ProcessEnv = process.env): Provider[] {
  const configured = loaded.config.provider ?? {};
  const names = [...Object.keys(configured), ...Object.keys(BUILTIN_PROVIDERS).filter((n) => !(n in configured))];
  return names.map((name) => buildProvider(name, loaded, env));
}

export function findProvider(name: string, loaded: LoadedConfig, env: NodeJS.ProcessEnv = process.env) {
  const known = name in (loaded.config.provider ?? {}) || name in BUILTIN_PROVIDERS;
  return known ? buildProvider(name, loaded, env) : undefined;
}

function buildProvider(name: string, loaded: LoadedConfig, env: NodeJS.ProcessEnv): Provider {
  const fromConfig = loaded.config.provider?.[name];
  const builtin = BUILTIN_PROVIDERS[name];
  const type = fromConfig?.type ?? builtin?.type;
  const models: Record<string, ModelInfo> = {};
  for (const [id, info] of Object.entries(builtin?.models ?? {})) models[id] = { ...info };
  for (const [id, info] of Object.entries(fromConfig?.models ?? {})) models[id] = { ...models[id], ...info };
  const credentials = findCredentials(name, type, loaded, env);
  const provider: Provider = {
    name,
    credentials,
    models,
    closed: builtin === undefined && fromConfig?.models !== undefined && fromConfig.any_model !== true,
    builtin: builtin !== undefined,
    configured: fromConfig !== undefined,
  };
  if (type) provider.type = type;
  if (fromConfig?.api) provider.api = fromConfig.api;
  const endpoint = endpointOf(name, type, loaded, env);
  if (endpoint) {
    provider.baseURL = endpoint.url;
    provider.baseURLSource = endpoint.source;
  }
  if (fromConfig?.headers) provider.headers = fromConfig.headers;
  // A configured key that did not resolve is missing — never replaced by the usual variable,
  // which may be a different account's key.
  const key = credentials.present
    ? fromConfig?.apiKey || builtin?.keyVariables.map((v) => env[v]).find((v) => v)
    : undefined;
  if (key) provider.apiKey = key;
  const defaultModel = builtin?.defaultModel ?? Object.keys(fromConfig?.models ?? {})[0];
  if (defaultModel) provider.defaultModel = defaultModel;
  if (!type) {
    provider.problem = `provider "${name}" has no type: set provider.${name}.type to anthropic, openai, openai-compatible or google`;
  } else if (type === "openai-compatible" && !fromConfig?.baseURL) {
    provider.problem = `provider "${name}" is openai-compatible but has no baseURL: set provider.${name}.baseURL`;
  }
  return provider;
}

/** The variables the AI SDK's provider packages read for their base URL when none is given. */
const BASE_URL_VARIABLES: Partial<Record<ProviderType, string>> = {
  anthropic: "ANTHROPIC_BASE_URL",
  openai: "OPENAI_BASE_URL",
};

/**
 * Where the provider's requests go, and who said so: its config, else the variable its SDK would
 * read on its own (ANTHROPIC_BASE_URL, OPENAI_BASE_URL) — read here instead, so the endpoint a key
 * is sent to is never chosen silently (it is shown by `bosun models` and recorded in model.select).
 */
function endpointOf(
  name: string,
  type: ProviderType | undefined,
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
): { url: string; source: string } | undefined {
  const configured = loaded.config.provider?.[name]?.baseURL;
  if (configured) {
    const key = `provider.${name}.baseURL`;
    const origin = loaded.origins.get(key);
    const where = origin?.file ? `${origin.file}${origin.line ? `:${origin.line}` : ""}` : (origin?.source ?? "config");
    return { url: configured, source: `${key} (${where})` };
  }
  const variable = type ? BASE_URL_VARIABLES[type] : undefined;
  const fromEnv = variable ? env[variable]?.trim() : undefined;
  return variable && fromEnv ? { url: fromEnv, source: `environment variable ${variable}` } : undefined;
}

function findCredentials(
  name: string,
  type: ProviderType | undefined,
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
): Credentials {
  const key = `provider.${name}.apiKey`;
  const origin = loaded.origins.get(key);
  if (loaded.config.provider?.[name]?.apiKey) {
    const where = origin?.file ? `${origin.file}${origin.line ? `:${origin.line}` : ""}` : (origin?.source ?? "config");
    const written = typeof origin?.raw === "string" ? ` ${origin.raw}` : "";
    return { present: true, source: `${key}${written} (${where})`, needed: true };
  }
  const unresolved = loaded.unresolved.find((u) => u.key === key);
  if (unresolved) {
    return { present: false, source: `missing: ${key} ${String(unresolved.raw)}: ${unresolved.reason}`, needed: true };
  }
  const variables = BUILTIN_PROVIDERS[name]?.keyVariables ?? [];
  const fromEnv = variables.find((v) => env[v]);
  if (fromEnv) return { present: true, source: `environment variable ${fromEnv}`, needed: true };
  if (type === "openai-compatible") return { present: false, source: "none needed", needed: false };
  const options = [...variables.map((v) => `environment variable ${v}`), key];
  return { present: false, source: `missing: set ${options.join(" or ")}`, needed: true };
}

/** Whether a request to this provider can be made at all. */
export function usable(provider: Provider): boolean {
  return !provider.problem && (provider.credentials.present || !provider.credentials.needed);
}
