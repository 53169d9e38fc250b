import type { Tool as SdkTool } from "ai";
import { catalogFor } from "./catalog.js";
import type { ResolvedModel } from "./resolve.js";
import { toolModeOf } from "./tool-mode.js";

/** The providers whose own web search bosun can send: Anthropic's Messages API, OpenAI's Responses API. */
export type NativeSearchKind = "anthropic" | "openai";

/** Which provider-run web search this model has, if any (OpenAI's Chat Completions has none). */
export function nativeSearchKind(model: Pick<ResolvedModel, "provider">): NativeSearchKind | undefined {
  const { type, api } = model.provider;
  if (type === "anthropic") return "anthropic";
  if (type === "openai" && api !== "chat") return "openai";
  return undefined;
}

/** What of the model seat context.tools weighs: whether it takes tools at all (and who said not), and its provider's own web search. */
export function toolTermsOf(model: Pick<ResolvedModel, "provider" | "info" | "modelId">): {
  modelTakesTools: boolean;
  noTools?: { holder: "config" | "code"; detail: string };
  nativeSearch?: NativeSearchKind;
} {
  const kind = nativeSearchKind(model);
  const takes = toolModeOf(model.info).mode !== "none";
  return {
    modelTakesTools: takes,
    ...(takes ? {} : { noTools: noToolsWhy(model) }),
    ...(kind ? { nativeSearch: kind } : {}),
  };
}

/** Who said the model takes no tools: bosun's catalog (code) when config left the catalog's word, else config. */
function noToolsWhy(model: Pick<ResolvedModel, "provider" | "info" | "modelId">): {
  holder: "config" | "code";
  detail: string;
} {
  const key = `provider.${model.provider.name}.models[${JSON.stringify(model.modelId)}].tools`;
  const catalog = catalogFor(model.provider.name, model.provider.type)[model.modelId]?.tools;
  if (catalog !== undefined && catalog === model.info.tools) {
    return {
      holder: "code",
      detail: `the model does not take tools: bosun's catalog says it makes no tool calls (set ${key} to "text" to describe them in its prompt)`,
    };
  }
  return { holder: "config", detail: `the model does not take tools: ${key} is ${JSON.stringify(model.info.tools)}` };
}

/** Searches one response may run at the provider (each is billed). */
export const NATIVE_MAX_USES = 5;

/** The provider's own web search tool, loaded with its provider package only when it is sent. */
export async function nativeSearchTool(kind: NativeSearchKind): Promise<SdkTool> {
  if (kind === "anthropic") {
    const { anthropic } = await import("@ai-sdk/anthropic");
    return anthropic.tools.webSearch_20250305({ maxUses: NATIVE_MAX_USES }) as SdkTool;
  }
  const { openai } = await import("@ai-sdk/openai");
  return openai.tools.webSearch({}) as SdkTool;
}
