import type { ShimMode } from "../calls/text/shim.js";
import { chooseEditTool } from "../context/edit-tool.js";
import { textToolsPrompt } from "../context/text-tools.js";
import { decideToolsOffered } from "../context/tools-offered.js";
import type { Tool } from "../contracts/tools.js";
import { nativeSearchKind, nativeSearchTool, toolTermsOf } from "../model/native-search.js";
import type { ResolvedModel } from "../model/resolve.js";
import { toolModeOf } from "../model/tool-mode.js";
import { judgeWeb } from "../permission/gate/web-reach.js";
import { toModelTools } from "./model-tools.js";
import { stepSystem } from "./step-context.js";
import type { TurnDeps } from "./turn.js";

/** Seat context.tools for a tool set: what is offered, the tools and system prompt sent, their size. */
export async function offerTools(deps: TurnDeps, tools: readonly Tool[], force?: { text: true }) {
  // Judged once per tool set: the rules that could hide a tool do not change within a turn.
  const offered = decideToolsOffered({
    tools,
    authority: deps.gate().authority,
    policy: deps.gate().policy.rules,
    modeRunsTools: deps.offerTools,
    ...toolTermsOf(deps.model),
    editTool: chooseEditTool(deps.model, deps.config),
  });
  // A provider's own web search goes as the provider's tool, not as one bosun runs.
  const nativeKind = nativeSearchKind(deps.model);
  // Told in text (tools: "text"): described in the system prompt, none sent, nor the provider's own search.
  // Or switched to it for the rest of a turn whose model wrote its calls as text (text-switch.ts).
  const text = force?.text === true || toolModeOf(deps.model.info).mode === "text";
  const native = nativeKind && !text ? offered.offered.filter((t) => t.native) : [];
  const nativeTools = Object.fromEntries(
    await Promise.all(native.map(async (t) => [t.name, await nativeSearchTool(nativeKind as "anthropic" | "openai")])),
  );
  const modelTools = toModelTools(offered.offered, nativeTools);
  const named = text ? offered.offered.filter((t) => !t.native) : offered.offered;
  const base = stepSystem(
    deps.context,
    named.map((t) => t.name),
  );
  const described = text ? textToolsPrompt(named) : "";
  const system = described ? `${base}\n\n${described}` : base;
  // Why the provider may search on its own, for the record of each search it runs (step.ts).
  const gate = deps.gate();
  const providerRuns =
    native.length > 0 ? judgeWeb({ authority: gate.authority, policy: gate.policy, auto: false }, "search") : undefined;
  const mode = toolModeOf(deps.model.info);
  // Text is read as calls when told so, or detected unless "native" was said; never with no tools offered.
  const shim: ShimMode = named.length === 0 ? "off" : text ? "configured" : mode.explicit ? "off" : "detect";
  return {
    decision: offered.decision,
    shim,
    sent: {
      ...(offered.offered.length > 0 && !text ? { modelTools } : {}),
      ...(providerRuns ? { providerRuns } : {}),
      system,
      fixedChars: system.length + (text ? 0 : JSON.stringify(modelTools).length),
    },
  };
}

/** The config key that sets how a model takes tools, for the record of its text mode. */
export function toolsKey(model: Pick<ResolvedModel, "provider" | "modelId">): string {
  return `provider.${model.provider.name}.models[${JSON.stringify(model.modelId)}].tools`;
}
