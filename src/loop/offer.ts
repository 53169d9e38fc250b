import { decideToolsOffered } from "../context/tools-offered.js";
import type { Tool } from "../contracts/tools.js";
import { toModelTools } from "./model-tools.js";
import { stepSystem } from "./step-context.js";
import type { TurnDeps } from "./turn.js";

/** Seat context.tools for a tool set: what is offered, the tools and system prompt sent, their size. */
export function offerTools(deps: TurnDeps, tools: readonly Tool[]) {
  // Judged once per tool set: the rules that could hide a tool do not change within a turn.
  const offered = decideToolsOffered({
    tools,
    authority: deps.gate().authority,
    policy: deps.gate().policy.rules,
    modeRunsTools: deps.offerTools,
    modelTakesTools: deps.model.info.tools !== false,
  });
  const modelTools = toModelTools(offered.offered);
  const system = stepSystem(
    deps.context,
    offered.offered.map((t) => t.name),
  );
  return {
    decision: offered.decision,
    sent: {
      ...(offered.offered.length > 0 ? { modelTools } : {}),
      system,
      fixedChars: system.length + JSON.stringify(modelTools).length,
    },
  };
}
