import type { Tool as SdkTool } from "ai";
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

/** What of the model seat context.tools weighs: whether it takes tools at all, and its provider's own web search. */
export function toolTermsOf(model: Pick<ResolvedModel, "provider" | "info">): {
  modelTakesTools: boolean;
  nativeSearch?: NativeSearchKind;
} {
  const kind = nativeSearchKind(model);
  return { modelTakesTools: toolModeOf(model.info).mode !== "none", ...(kind ? { nativeSearch: kind } : {}) };
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
