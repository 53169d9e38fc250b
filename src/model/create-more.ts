import { pathToFileURL } from "node:url";
import type { LanguageModel } from "ai";
import { type AwsProfileKeys, awsProfileKeys } from "./credential-files.js";
import { googleAuthOptions } from "./google-auth.js";
import { npmPackageMissing, resolveNpmPackage } from "./npm-package.js";
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
      const profile = bedrockProfile(common);
      return createAmazonBedrock({
        ...common,
        ...(s.region ? { region: s.region } : {}),
        ...(profile ? { credentialProvider: async () => profile } : {}),
      })(modelId);
    }
    case "vertex": {
      const where = {
        ...(s.project ? { project: s.project } : {}),
        ...(s.location ? { location: s.location } : {}),
        // Application-default credentials: the token request is bounded too, and goes where the key file says.
        googleAuthOptions: googleAuthOptions(common.fetch),
      };
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

/**
 * A shared-credentials profile's keys, used only when nothing the SDK reads itself is set (a
 * bearer token, the key pair in the environment): the AWS tools' own order, the environment first.
 */
function bedrockProfile(common: Common, env: NodeJS.ProcessEnv = process.env): AwsProfileKeys | undefined {
  if (common.apiKey || env.AWS_BEARER_TOKEN_BEDROCK?.trim()) return undefined;
  if (env.AWS_ACCESS_KEY_ID?.trim() && env.AWS_SECRET_ACCESS_KEY?.trim()) return undefined;
  const found = awsProfileKeys(env);
  if (!found) return undefined;
  const { source: _, ...keys } = found;
  return keys;
}

/** The package's first `create*` function export, given the bounded fetch and the config's key and endpoint. */
async function buildNpmModel(provider: Provider, modelId: string, common: Common): Promise<LanguageModel> {
  const name = provider.settings.npm;
  if (!name) throw new Error(`provider ${provider.name} names no npm package`);
  const path = resolveNpmPackage(name);
  if (!path) throw new Error(npmPackageMissing(provider.name, name));
  const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  const create = Object.entries(mod).find(([k, v]) => /^create[A-Z]/.test(k) && typeof v === "function")?.[1] as
    | ((o: Common) => (id: string) => LanguageModel)
    | undefined;
  if (!create) throw new Error(`provider ${provider.name}: package ${name} exports no create* function`);
  return create(common)(modelId);
}
