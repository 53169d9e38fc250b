import { formatKey } from "../config/keypath.js";
import type { LoadedConfig } from "../config/load.js";
import type { Holder, Reason } from "../contracts/decisions.js";
import type { ResolvedModel } from "../model/resolve.js";

/** The tools that change part of a file: a model is offered one of them (write is always there). */
export const EDIT_TOOLS = ["edit", "apply_patch"] as const;
export type EditToolName = (typeof EDIT_TOOLS)[number];

export interface EditToolChoice {
  tool: EditToolName;
  holder: Holder;
  reason: Reason;
}

/** OpenAI's models trained on apply_patch's format: gpt-*, the o-series (o1, o3, o4-mini, …) and codex ones. */
const PATCH_TRAINED = /^(gpt-|o\d)|codex/;

/**
 * Part of seat `context.tools`: whether a model changes files with edit (exact strings) or with
 * apply_patch (Codex's patch format). The model's own config says, when it does
 * (provider.<p>.models.<m>.edit_tool); else apply_patch for the models trained on that format,
 * by their id (a router's `openai/gpt-5` too), and edit for the rest.
 */
export function chooseEditTool(
  model: Pick<ResolvedModel, "modelId" | "info"> & { provider: { name: string } },
  config?: Pick<LoadedConfig, "origins">,
): EditToolChoice {
  const configured = model.info.edit_tool;
  if (configured) {
    const key = formatKey(["provider", model.provider.name, "models", model.modelId, "edit_tool"]);
    const origin = config?.origins.get(key);
    return {
      tool: configured,
      holder: "config",
      reason: {
        rule: "edit tool",
        detail: `${configured}, not ${other(configured)}: the model's config says so`,
        key,
        source: origin?.file ?? origin?.source ?? "config",
        ...(origin?.line ? { line: origin.line } : {}),
      },
    };
  }
  const id = (model.modelId.split("/").at(-1) ?? model.modelId).toLowerCase();
  const tool: EditToolName = PATCH_TRAINED.test(id) ? "apply_patch" : "edit";
  const why =
    tool === "apply_patch"
      ? `${model.modelId} is one of OpenAI's gpt-*, o* or codex models, trained on apply_patch's format`
      : `${model.modelId} is not one of OpenAI's gpt-*, o* or codex models, trained on apply_patch's format`;
  return {
    tool,
    holder: "code",
    reason: {
      rule: "edit tool",
      detail: `${tool}, not ${other(tool)}: ${why} (provider.${model.provider.name}.models.<id>.edit_tool chooses)`,
    },
  };
}

function other(tool: EditToolName): EditToolName {
  return tool === "edit" ? "apply_patch" : "edit";
}
