import type { ProviderType } from "./catalog.js";

/**
 * What each provider type's SDK reads from the environment on its own, so bosun can say where a
 * credential or endpoint came from (never the value). Azure, Bedrock and Vertex authenticate by
 * more than one key: `chain` lists the alternatives, each a set of variables that must all be set.
 */
export interface TypeFacts {
  /** Variables holding the API key, first found wins. */
  keyVariables: readonly string[];
  /** Other credential sources the SDK accepts, e.g. AWS key pairs; each set must be complete. */
  chain?: readonly (readonly string[])[];
  /** Variables the SDK reads for its endpoint or account, shown and recorded when set. */
  settingVariables?: readonly string[];
  /** The variable that holds the base URL, read here so the endpoint is never chosen silently. */
  baseURLVariable?: string;
}

export const TYPE_FACTS: Record<ProviderType, TypeFacts> = {
  anthropic: { keyVariables: ["ANTHROPIC_API_KEY"], baseURLVariable: "ANTHROPIC_BASE_URL" },
  openai: { keyVariables: ["OPENAI_API_KEY"], baseURLVariable: "OPENAI_BASE_URL" },
  google: { keyVariables: ["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"] },
  "openai-compatible": { keyVariables: [] },
  azure: { keyVariables: ["AZURE_API_KEY"], settingVariables: ["AZURE_RESOURCE_NAME"] },
  // @ai-sdk/amazon-bedrock signs with SigV4 from these variables; AWS_PROFILE and SSO need
  // @aws-sdk/credential-providers, which bosun does not ship, so they are not a source here.
  bedrock: {
    keyVariables: ["AWS_BEARER_TOKEN_BEDROCK"],
    chain: [["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]],
    settingVariables: ["AWS_REGION", "AWS_SESSION_TOKEN"],
    baseURLVariable: "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
  },
  // google-auth-library finds application-default credentials itself (GOOGLE_APPLICATION_CREDENTIALS,
  // gcloud's file, the metadata server); bosun can only name the variable when it is set.
  vertex: {
    keyVariables: ["GOOGLE_VERTEX_API_KEY"],
    chain: [["GOOGLE_APPLICATION_CREDENTIALS"]],
    settingVariables: ["GOOGLE_VERTEX_PROJECT", "GOOGLE_VERTEX_LOCATION"],
  },
  openrouter: { keyVariables: ["OPENROUTER_API_KEY"] },
  // An npm provider package reads what it reads; its key is whatever config gives it.
  npm: { keyVariables: [] },
};

/** Vertex serves Anthropic's models through its own SDK entry: told apart by the model id. */
export function isVertexAnthropic(modelId: string): boolean {
  return /^claude-/.test(modelId);
}
