import { createRequire } from "node:module";
import { isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { LanguageModel } from "ai";
import { dataDir } from "../config/paths.js";
import { isVertexAnthropic } from "./provider-types.js";
import type { Provider } from "./providers.js";

/** What every provider is built with: the bounded fetch, and the key, endpoint and headers when set. */
export interface Common {
  fetch: typeof globalThis.fetch;
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
}

/** Azure, Bedrock, Vertex, OpenRouter and npm providers; each imported only when used, each with the bounded fetch. */
export async function buildMoreModel(provider: Provider, modelId: string, common: Common): Promise<LanguageModel> {
  const s = provider.settings;
  switch (provider.type) {
    case "azure": {
      const { createAzure } = await import("@ai-sdk/azure");
      return createAzure({
        ...common,
        ...(s.resourceName ? { resourceName: s.resourceName } : {}),
        ...(s.apiVersion ? { apiVersion: s.apiVersion } : {}),
      })(modelId);
    }
    case "bedrock": {
      const { createAmazonBedrock } = await import("@ai-sdk/amazon-bedrock");
      return createAmazonBedrock({ ...common, ...(s.region ? { region: s.region } : {}) })(modelId);
    }
    case "vertex": {
      const where = { ...(s.project ? { project: s.project } : {}), ...(s.location ? { location: s.location } : {}) };
      if (isVertexAnthropic(modelId)) {
        const { createVertexAnthropic } = await import("@ai-sdk/google-vertex/anthropic");
        return createVertexAnthropic({ ...common, ...where })(modelId);
      }
      const { createVertex } = await import("@ai-sdk/google-vertex");
      return createVertex({ ...common, ...where })(modelId);
    }
    case "openrouter": {
      const { createOpenRouter } = await import("@openrouter/ai-sdk-provider");
      return createOpenRouter(common)(modelId) as unknown as LanguageModel;
    }
    case "npm":
      return buildNpmModel(provider, modelId, common);
    default:
      throw new Error(`provider ${provider.name} has no type`);
  }
}

/** Where npm provider packages are looked for, after bosun's own node_modules. */
export function providersDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.BOSUN_HOME ? join(env.BOSUN_HOME, "providers") : join(dataDir(env), "providers");
}

/** The package from bosun's node_modules, else `<providersDir>/node_modules`; its first `create*` function export. */
async function buildNpmModel(provider: Provider, modelId: string, common: Common): Promise<LanguageModel> {
  const name = provider.settings.npm;
  if (!name) throw new Error(`provider ${provider.name} names no npm package`);
  let path: string | undefined;
  for (const from of [import.meta.url, pathToFileURL(join(providersDir(), "package.json")).href]) {
    try {
      path = createRequire(from).resolve(name);
      break;
    } catch {}
  }
  // A package resolves to a file; anything else (a built-in's bare name) would be read relative to the cwd.
  if (path && !isAbsolute(path)) throw new Error(`provider ${provider.name}: ${name} is not a provider package`);
  if (!path) {
    throw new Error(
      `provider ${provider.name}: npm package ${name} is not installed in bosun's node_modules or ${join(providersDir(), "node_modules")} (npm install --prefix ${providersDir()} ${name})`,
    );
  }
  const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  const create = Object.entries(mod).find(([k, v]) => /^create[A-Z]/.test(k) && typeof v === "function")?.[1] as
    | ((o: Common) => (id: string) => LanguageModel)
    | undefined;
  if (!create) throw new Error(`provider ${provider.name}: package ${name} exports no create* function`);
  return create(common)(modelId);
}
