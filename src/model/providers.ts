import { isBuiltin } from "node:module";
import type { LoadedConfig } from "../config/load.js";
import { BUILTIN_PROVIDERS, catalogFor, type ModelInfo, type ProviderType } from "./catalog.js";
import { awsFallbackRegion, awsProfileKeys, gcloudCredentials } from "./credential-files.js";
import { serviceAccountTokenUri } from "./google-auth.js";
import { npmPackageMissing, resolveNpmPackage } from "./npm-package.js";
import { TYPE_FACTS } from "./provider-types.js";

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
  /** Type-specific settings from config (azure resourceName/apiVersion, bedrock region, vertex project/location, npm package). */
  settings: Record<string, string>;
  /** Variables the provider's SDK reads on its own that are set here, with where: shown and recorded, never a secret's value. */
  envSettings: string[];
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
  for (const [id, info] of Object.entries(catalogFor(name, type))) models[id] = { ...info };
  for (const [id, info] of Object.entries(fromConfig?.models ?? {})) models[id] = { ...models[id], ...info };
  const credentials = findCredentials(name, type, loaded, env);
  const provider: Provider = {
    name,
    credentials,
    models,
    closed: builtin === undefined && fromConfig?.models !== undefined && fromConfig.any_model !== true,
    builtin: builtin !== undefined,
    configured: fromConfig !== undefined,
    settings: settingsOf(fromConfig),
    envSettings: envSettingsOf(type, env),
  };
  if (type === "bedrock" && !provider.settings.region && !env.AWS_REGION?.trim()) {
    // The SDK reads only AWS_REGION; the AWS tools' other places are read here and handed to it.
    const fallback = awsFallbackRegion(env);
    if (fallback) {
      provider.settings.region = fallback.region;
      provider.envSettings.push(`region=${fallback.region} (${fallback.source})`);
    }
  }
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
    ? fromConfig?.apiKey ||
      keyVariablesOf(name, type)
        .map((v) => env[v])
        .find((v) => v)
    : undefined;
  if (key) provider.apiKey = key;
  const defaultModel = builtin?.defaultModel ?? Object.keys(fromConfig?.models ?? {})[0];
  if (defaultModel) provider.defaultModel = defaultModel;
  const problem = problemOf(name, type, loaded, env) ?? placeProblem(provider, env);
  if (problem) provider.problem = problem;
  return provider;
}

const SETTING_KEYS = ["npm", "resourceName", "apiVersion", "region", "project", "location"] as const;

function settingsOf(fromConfig: Record<string, unknown> | undefined): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const key of SETTING_KEYS) {
    const value = fromConfig?.[key];
    if (typeof value === "string" && value) settings[key] = value;
  }
  return settings;
}

/** Names only: a session token or credentials path is named, never printed. */
function envSettingsOf(type: ProviderType | undefined, env: NodeJS.ProcessEnv): string[] {
  const facts = type ? TYPE_FACTS[type] : undefined;
  const settings = (facts?.settingVariables ?? [])
    .filter((v) => env[v]?.trim())
    .map((v) => (/TOKEN|KEY|SECRET|CREDENTIALS/.test(v) ? `${v} (set)` : `${v}=${env[v]?.trim()}`));
  // Where the service account's grant is posted, when its key file names an endpoint of its own.
  const tokenUri = type === "vertex" ? serviceAccountTokenUri(env) : undefined;
  if (tokenUri) settings.push(`token_uri=${tokenUri} (GOOGLE_APPLICATION_CREDENTIALS's key file)`);
  return settings;
}

function keyVariablesOf(name: string, type: ProviderType | undefined): readonly string[] {
  return BUILTIN_PROVIDERS[name]?.keyVariables ?? (type ? TYPE_FACTS[type].keyVariables : []);
}

/** Why the provider cannot be used at all, if so: a missing type, endpoint or package, or code a repository brought. */
function problemOf(
  name: string,
  type: ProviderType | undefined,
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const own = loaded.config.provider?.[name];
  if (!type) {
    // An untrusted repository's provider is loaded without its type and package (seat project.trust).
    const fromProject = loaded.documents.some((d) => d.layer === "project" && d.data.provider?.[name] !== undefined);
    const hint = fromProject
      ? "; a repository's provider.<name>.type, baseURL and npm apply only when you trust its config (--trust-project)"
      : "";
    return `provider "${name}" has no type: set provider.${name}.type to anthropic, openai, openai-compatible, google, azure, bedrock, vertex, openrouter or npm${hint}`;
  }
  if (type === "openai-compatible" && !own?.baseURL) {
    return `provider "${name}" is openai-compatible but has no baseURL: set provider.${name}.baseURL`;
  }
  if (type === "azure" && !own?.baseURL && !own?.resourceName && !env.AZURE_RESOURCE_NAME?.trim()) {
    return `provider "${name}" is azure but names no resource: set provider.${name}.resourceName, AZURE_RESOURCE_NAME or provider.${name}.baseURL`;
  }
  // A package is code run in bosun's own process, unconfined. A repository's `npm` (and `type`) is
  // a loosening of seat project.trust: left out of the config unless the person trusts that content.
  if (type === "npm") {
    if (!own?.npm) {
      return `provider "${name}" is npm but names no package: set provider.${name}.npm, e.g. "@ai-sdk/mistral"`;
    }
    // A Node built-in resolves to its bare name, which the loader would read as a file of the cwd.
    if (isBuiltin(own.npm)) {
      return `provider "${name}" names ${own.npm}, a Node built-in module, not a provider package: set provider.${name}.npm to an AI SDK provider package`;
    }
    // Told before the run starts (and by `bosun models`), not as a failed request mid-turn.
    if (!resolveNpmPackage(own.npm, env)) return npmPackageMissing(name, own.npm, env);
  }
  return undefined;
}

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
  const variable = (type ? (TYPE_FACTS[type].baseURLVariables ?? []) : []).find((v) => env[v]?.trim());
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
  const variables = keyVariablesOf(name, type);
  const fromEnv = variables.find((v) => env[v]);
  if (fromEnv) return { present: true, source: `environment variable ${fromEnv}`, needed: true };
  const chain = type ? (TYPE_FACTS[type].chain ?? []) : [];
  const complete = chain.find((set) => set.every((v) => env[v]?.trim()));
  if (complete) return { present: true, source: `environment variables ${complete.join(" + ")}`, needed: true };
  const fromFile = type === "vertex" ? gcloudCredentials(env) : type === "bedrock" ? awsProfileKeys(env) : undefined;
  if (fromFile) return { present: true, source: fromFile.source, needed: true };
  if (type === "openai-compatible") return { present: false, source: "none needed", needed: false };
  if (type === "npm") return { present: false, source: "the package's own (its environment variables)", needed: false };
  const options = [
    ...variables.map((v) => `environment variable ${v}`),
    ...chain.map((set) => `environment variables ${set.join(" + ")}`),
    ...(FILE_SOURCES[type ?? ""] ?? []),
    key,
  ];
  return { present: false, source: `missing: set ${options.join(" or ")}`, needed: true };
}

/**
 * Where a cloud provider's account is, when its SDK needs it and nothing says: with credentials
 * but no place, said before the run (and by `bosun models`), not as a failed request mid-turn.
 * Bedrock signs for a region; Vertex's Gemini URLs name a project and location (an express-mode
 * API key needs neither).
 */
function placeProblem(provider: Provider, env: NodeJS.ProcessEnv): string | undefined {
  if (!provider.credentials.present) return undefined;
  const { name, settings } = provider;
  if (provider.type === "bedrock") {
    if (settings.region || env.AWS_REGION?.trim()) return undefined;
    // A bearer token to a given endpoint signs nothing: the region would only name the endpoint.
    if (provider.apiKey && provider.baseURL) return undefined;
    return `provider "${name}" is bedrock but names no region: set AWS_REGION or provider.${name}.region`;
  }
  if (provider.type === "vertex" && !provider.apiKey) {
    const missing = [
      ...(settings.project || env.GOOGLE_VERTEX_PROJECT?.trim() ? [] : [["project", "GOOGLE_VERTEX_PROJECT"]]),
      ...(settings.location || env.GOOGLE_VERTEX_LOCATION?.trim() ? [] : [["location", "GOOGLE_VERTEX_LOCATION"]]),
    ];
    if (missing.length === 0) return undefined;
    const what = missing.map(([key, variable]) => `${variable} or provider.${name}.${key}`).join(", and ");
    return `provider "${name}" is vertex but names no ${missing.map(([key]) => key).join(" or ")}: set ${what}`;
  }
  return undefined;
}

/** The files a cloud SDK's own tools leave credentials in, as the person is told to make them. */
const FILE_SOURCES: Record<string, string[]> = {
  vertex: ["gcloud auth application-default login"],
  bedrock: ["a profile's keys in ~/.aws/credentials (AWS_PROFILE, AWS_SHARED_CREDENTIALS_FILE)"],
};

/** Whether a request to this provider can be made at all. */
export function usable(provider: Provider): boolean {
  return !provider.problem && (provider.credentials.present || !provider.credentials.needed);
}
