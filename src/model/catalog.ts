/**
 * What bosun knows about models without being told: the built-in providers, where their keys
 * come from, their default model, and limits, capabilities and prices of common models.
 * Config (`provider.<name>.models`) overrides any of it; a model missing here is still usable,
 * with unknown limits, and that is recorded when it is selected.
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

export const BUILTIN_PROVIDERS: Readonly<Record<string, BuiltinProvider>> = {
  anthropic: {
    type: "anthropic",
    keyVariables: ["ANTHROPIC_API_KEY"],
    defaultModel: "claude-sonnet-4-5",
    models: {
      "claude-opus-4-1": {
        context: 200_000,
        output: 32_000,
        tools: true,
        images: true,
        price: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
      },
      "claude-sonnet-4-5": {
        context: 200_000,
        output: 64_000,
        tools: true,
        images: true,
        price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      },
      "claude-haiku-4-5": {
        context: 200_000,
        output: 64_000,
        tools: true,
        images: true,
        price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
      },
    },
  },
  openai: {
    type: "openai",
    keyVariables: ["OPENAI_API_KEY"],
    defaultModel: "gpt-5",
    models: {
      "gpt-5": {
        context: 400_000,
        output: 128_000,
        tools: true,
        images: true,
        price: { input: 1.25, output: 10, cacheRead: 0.125 },
      },
      "gpt-5-mini": {
        context: 400_000,
        output: 128_000,
        tools: true,
        images: true,
        price: { input: 0.25, output: 2, cacheRead: 0.025 },
      },
      "gpt-4.1": {
        context: 1_047_576,
        output: 32_768,
        tools: true,
        images: true,
        price: { input: 2, output: 8, cacheRead: 0.5 },
      },
      "o4-mini": {
        context: 200_000,
        output: 100_000,
        tools: true,
        images: true,
        price: { input: 1.1, output: 4.4, cacheRead: 0.275 },
      },
    },
  },
  google: {
    type: "google",
    keyVariables: ["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"],
    defaultModel: "gemini-2.5-pro",
    models: {
      "gemini-2.5-pro": {
        context: 1_048_576,
        output: 65_536,
        tools: true,
        images: true,
        price: { input: 1.25, output: 10 },
      },
      "gemini-2.5-flash": {
        context: 1_048_576,
        output: 65_536,
        tools: true,
        images: true,
        price: { input: 0.3, output: 2.5 },
      },
    },
  },
  // Providers reached by their own SDKs; their models are named as the provider names them.
  openrouter: {
    type: "openrouter",
    keyVariables: ["OPENROUTER_API_KEY"],
    defaultModel: "anthropic/claude-sonnet-4.5",
    models: {},
  },
  bedrock: {
    type: "bedrock",
    keyVariables: ["AWS_BEARER_TOKEN_BEDROCK"],
    defaultModel: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    models: {},
  },
  vertex: {
    type: "vertex",
    keyVariables: ["GOOGLE_VERTEX_API_KEY"],
    defaultModel: "gemini-2.5-pro",
    models: {},
  },
};
