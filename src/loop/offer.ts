import { chooseEditTool } from "../context/edit-tool.js";
import { decideToolsOffered } from "../context/tools-offered.js";
import type { Tool } from "../contracts/tools.js";
import { nativeSearchKind, nativeSearchTool, toolTermsOf } from "../model/native-search.js";
import { judgeWeb } from "../permission/gate/web-reach.js";
import { toModelTools } from "./model-tools.js";
import { stepSystem } from "./step-context.js";
import type { TurnDeps } from "./turn.js";

/** Seat context.tools for a tool set: what is offered, the tools and system prompt sent, their size. */
export async function offerTools(deps: TurnDeps, tools: readonly Tool[]) {
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
  const native = nativeKind ? offered.offered.filter((t) => t.native) : [];
  const nativeTools = Object.fromEntries(
    await Promise.all(native.map(async (t) => [t.name, await nativeSearchTool(nativeKind as "anthropic" | "openai")])),
  );
  const modelTools = toModelTools(offered.offered, nativeTools);
  const system = stepSystem(
    deps.context,
    offered.offered.map((t) => t.name),
  );
  // Why the provider may search on its own, for the record of each search it runs (step.ts).
  const gate = deps.gate();
  const providerRuns =
    native.length > 0 ? judgeWeb({ authority: gate.authority, policy: gate.policy, auto: false }, "search") : undefined;
  return {
    decision: offered.decision,
    sent: {
      ...(offered.offered.length > 0 ? { modelTools } : {}),
      ...(providerRuns ? { providerRuns } : {}),
      system,
      fixedChars: system.length + JSON.stringify(modelTools).length,
    },
  };
}
