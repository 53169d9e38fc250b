import { toolMatches } from "../agents/delegation.js";
import { taskTool } from "../agents/task.js";
import type { LoadedConfig } from "../config/load.js";
import { chooseEditTool } from "../context/edit-tool.js";
import { decideToolsOffered } from "../context/tools-offered.js";
import type { Decision } from "../contracts/decisions.js";
import type { QuestionPrompt } from "../contracts/question.js";
import type { Tool } from "../contracts/tools.js";
import { toolTermsOf } from "../model/native-search.js";
import type { ResolvedModel } from "../model/resolve.js";
import type { GateDeps } from "../permission/gate/gate.js";
import { questionTool } from "../tools/question.js";
import { builtinTools } from "../tools/registry.js";
import { delegateChoices, sessionDelegator } from "./delegate.js";
import { delegationHost } from "./delegate-host.js";
import type { OpenInput, Opening, Started } from "./open.js";

/**
 * The tools a session has: the built-in ones, the question tool (asking through the person's
 * prompt, if anyone is there), what the run found (skills, MCP servers) and the task tool,
 * narrowed by the agent's `tools` (a delegate's are narrowed again from its parent's).
 */
export function sessionTools(
  input: OpenInput,
  opening: Opening,
  parts: Pick<Started, "session" | "model" | "gate"> & {
    record: (decision: Decision) => void;
    children: Set<string>;
    question?: QuestionPrompt;
    found: readonly Tool[];
  },
): { tools: Tool[]; delegation: Started["delegation"] } {
  const { config, agentChoice } = opening;
  const agentTools = agentChoice.agent.tools;
  const picked = (name: string) => !agentTools || agentTools.some((pattern) => toolMatches(pattern, name));
  const asking = questionTool({ ...(parts.question ? { ask: parts.question } : {}), record: parts.record });
  const tools: Tool[] = [...builtinTools(config.config.web?.search), asking, ...parts.found].filter((tool) =>
    picked(tool.name),
  );
  const { session, model, gate, children } = parts;
  const delegation = delegationHost(input, opening, {
    session,
    model,
    gate,
    tools,
    children,
    ...(parts.question ? { question: parts.question } : {}),
  });
  if (config.config.delegate.max_depth > 0 && picked("task")) {
    const recipes = (input.options.subRecipes ?? []).map((sub) => ({
      name: sub.name,
      title: sub.recipe.title,
      agent: sub.recipe.agent ?? "build",
      parameters: sub.recipe.parameters.map((p) => p.name),
    }));
    tools.push(taskTool(delegateChoices(config), sessionDelegator(delegation.host), recipes));
  }
  return { tools, delegation };
}

/** The names of the tools the model is offered as things stand: the decider each turn asks (seat context.tools). */
export function offeredNames(
  tools: readonly Tool[],
  gate: Pick<GateDeps, "authority" | "policy">,
  modeRunsTools: boolean,
  model: Pick<ResolvedModel, "provider" | "info" | "modelId">,
  config: Pick<LoadedConfig, "origins">,
): string[] {
  const terms = {
    tools,
    authority: gate.authority,
    policy: gate.policy.rules,
    modeRunsTools,
    ...toolTermsOf(model),
    editTool: chooseEditTool(model, config),
  };
  return decideToolsOffered(terms).offered.map((tool) => tool.name);
}
