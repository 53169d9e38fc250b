import { appendKey, formatKey } from "../config/keypath.js";
import type { LoadedConfig } from "../config/load.js";
import { whereSet } from "../config/load.js";
import type { Answer, Reason } from "../contracts/decisions.js";
import { maxOutputOf, type ResolvedModel } from "./resolve.js";

export type Effort = "minimal" | "low" | "medium" | "high";

/** `reasoning` as written in config: on a model (`provider.<p>.models.<m>`) or an agent. */
export interface ReasoningSetting {
  effort?: Effort;
  budget_tokens?: number;
}

/** What seat `model.options` settled for a model: the setting and where it came from, or none. */
export interface ReasoningChoice {
  setting?: ReasoningSetting;
  /** The config key the setting was read from (`agent.<a>.reasoning`, `provider.<p>.models.<m>.reasoning`). */
  key?: string;
}

/** Anthropic's least budget; the budgets an effort stands for where a provider takes only a budget. */
export const MIN_BUDGET = 1024;
const BUDGET_OF: Record<Effort, number> = { minimal: 1024, low: 2048, medium: 8192, high: 16384 };

/**
 * Which reasoning setting a model's requests carry: the agent's `reasoning` over its model's, a
 * whole object (an agent's setting replaces the model's, it does not merge with it). Neither
 * set: none, so the provider's own default stands (code).
 */
export function chooseReasoning(
  config: LoadedConfig,
  model: Pick<ResolvedModel, "provider" | "modelId">,
  agent: string | undefined,
): ReasoningChoice {
  const byAgent = agent ? (config.config.agent?.[agent] as { reasoning?: ReasoningSetting } | undefined) : undefined;
  // Keys as load.ts prints them (`provider.openai.models["gpt-4.1"].reasoning`), so the record finds where it was set.
  if (byAgent?.reasoning)
    return { setting: byAgent.reasoning, key: formatKey(["agent", agent as string, "reasoning"]) };
  const models = (config.config.provider?.[model.provider.name] as { models?: Record<string, unknown> } | undefined)
    ?.models;
  const byModel = models?.[model.modelId] as { reasoning?: ReasoningSetting } | undefined;
  if (byModel?.reasoning) {
    return {
      setting: byModel.reasoning,
      key: formatKey(["provider", model.provider.name, "models", model.modelId, "reasoning"]),
    };
  }
  return {};
}

/** What was sent for reasoning: the effort and budget after mapping onto the provider, and its options. */
export interface SentReasoning {
  effort?: Effort;
  budget_tokens?: number;
  /** The provider options that carry it, by the AI SDK's provider key. */
  options: Record<string, Record<string, unknown>>;
  /** The output limit sent, when the budget had to fit under the model's. */
  maxOutputTokens?: number;
}

/**
 * The provider options for a reasoning setting: Anthropic and Google take a token budget (an
 * effort alone stands for one), OpenAI and compatible servers an effort (a budget alone maps to
 * the nearest). Anthropic counts the budget inside max_tokens — the SDK adds it to the output
 * limit — so where the model's output limit is known the budget must fit under it.
 * Pure: no setting, no options.
 */
export function reasoningOptions(
  provider: { type?: string | undefined; api?: string | undefined },
  setting: ReasoningSetting | undefined,
  outputLimit: number | undefined,
): SentReasoning | undefined {
  if (!setting || (setting.effort === undefined && setting.budget_tokens === undefined)) return undefined;
  const effort = setting.effort ?? effortOf(setting.budget_tokens ?? MIN_BUDGET);
  switch (provider.type) {
    case "anthropic": {
      let budget = setting.budget_tokens ?? BUDGET_OF[effort];
      let maxOutputTokens: number | undefined;
      if (outputLimit !== undefined) {
        // Leave at least MIN_BUDGET tokens to answer with; a model too small for that thinks least.
        budget = Math.max(MIN_BUDGET, Math.min(budget, outputLimit - MIN_BUDGET));
        maxOutputTokens = Math.max(1, outputLimit - budget);
      }
      return {
        effort,
        budget_tokens: budget,
        options: { anthropic: { thinking: { type: "enabled", budgetTokens: budget } } },
        ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
      };
    }
    case "google": {
      const budget = setting.budget_tokens ?? BUDGET_OF[effort];
      return {
        effort,
        budget_tokens: budget,
        options: { google: { thinkingConfig: { thinkingBudget: budget, includeThoughts: true } } },
      };
    }
    case "openai":
      // The SDK sends an effort only to ids it knows reason (o*, gpt-5): configured, the model is taken to.
      if (provider.api === "chat")
        return { effort, options: { openai: { reasoningEffort: effort, forceReasoning: true } } };
      // bosun keeps the conversation itself (store:false): the reasoning comes back encrypted to be replayed.
      return {
        effort,
        options: {
          openai: {
            reasoningEffort: effort,
            reasoningSummary: "auto",
            forceReasoning: true,
            include: ["reasoning.encrypted_content"],
          },
        },
      };
    default:
      return { effort, options: { openaiCompatible: { reasoningEffort: effort } } };
  }
}

function effortOf(budget: number): Effort {
  if (budget <= BUDGET_OF.minimal) return "minimal";
  if (budget <= BUDGET_OF.low) return "low";
  if (budget <= BUDGET_OF.medium) return "medium";
  return "high";
}

/** The answer of seat `model.options`: what a model's requests carry for reasoning, and who said so. */
export type ModelOptionsAnswer = Answer<
  { reasoning: "none" } | { reasoning: { effort?: Effort; budget_tokens?: number }; sent: Record<string, unknown> }
>;

/** Seat `model.options`, decided for the model that answers: pure, the caller records it. */
export function decideModelOptions(
  config: LoadedConfig,
  model: ResolvedModel,
  agent: string | undefined,
): { decision: ModelOptionsAnswer; sent?: SentReasoning } {
  const choice = chooseReasoning(config, model, agent);
  // An assumed output limit is no limit to fit a thinking budget under (resolve.ts maxOutputOf).
  const sent = reasoningOptions(model.provider, choice.setting, maxOutputOf(model).maxOutputTokens);
  if (!choice.key || !sent) {
    return {
      decision: {
        holder: "code",
        answer: { reasoning: "none" },
        reasons: [
          {
            rule: "no reasoning configured",
            detail: `neither the agent nor ${model.ref} sets reasoning: the provider's default stands`,
            decisive: true,
          },
        ],
      },
    };
  }
  const where =
    whereSet(config, appendKey(choice.key, "effort")) ?? whereSet(config, appendKey(choice.key, "budget_tokens"));
  const reasons: Reason[] = [
    {
      rule: choice.key,
      detail: JSON.stringify(choice.setting),
      key: choice.key,
      ...(where ? { source: where } : {}),
      decisive: true,
    },
  ];
  const { options, maxOutputTokens, ...mapped } = sent;
  if (mapped.budget_tokens !== undefined && mapped.budget_tokens !== choice.setting?.budget_tokens) {
    reasons.push({
      rule: "budget",
      detail: `${mapped.budget_tokens} thinking tokens${maxOutputTokens !== undefined ? `, ${maxOutputTokens} left to answer (${model.ref} outputs at most ${model.info.output})` : ""}`,
    });
  }
  return { decision: { holder: "config", answer: { reasoning: mapped, sent: options }, reasons }, sent };
}
