import type { Recipe } from "../config/recipe.js";
import type { Decision, Reason } from "../contracts/decisions.js";

/** An agent's settings as config has them (only what says whether it loosens anything). */
export interface AgentSettings {
  mode?: string;
  permission?: Record<string, unknown>;
}

/** What a recipe's settings come to for the run: what applies, and seat recipe.settings' decision. */
export interface RecipeSettings {
  agent?: string;
  model?: string;
  mode?: string;
  decision: Decision<"applied" | "refused" | "none">;
  /** One line a refusal warns with, naming how to allow it. */
  warning?: string;
}

const LOOSE_MODES = new Set(["smart", "auto"]);

/**
 * Seat `recipe.settings`: which of a recipe's agent, model and mode the run takes. The person's
 * own flag (--agent, --model, --mode) wins over the recipe's. A repository's recipe is the
 * repository's config: a mode that runs calls without asking (smart, auto), or an agent whose
 * config does (its mode smart or auto, or allow rules of its own), loosens authority and is
 * refused unless the person trusts the repository for this run (--trust-project) — left out,
 * recorded, warned about with how to allow it; the run goes on with the person's own settings.
 * A model changes no authority and applies.
 */
export function decideRecipeSettings(input: {
  recipe: Recipe;
  name: string;
  fromRepository: boolean;
  trusted: boolean;
  flags: { agent?: string; model?: string; mode?: string };
  agents: Readonly<Record<string, AgentSettings>>;
}): RecipeSettings {
  const { recipe, flags } = input;
  const source = recipe.file;
  const reasons: Reason[] = [];
  const refused: string[] = [];
  const out: Omit<RecipeSettings, "decision"> = {};
  const guarded = input.fromRepository && !input.trusted;
  const consider = (key: "agent" | "model" | "mode", loosens: string | undefined) => {
    const value = recipe[key];
    if (value === undefined) return;
    const flag = flags[key];
    if (flag !== undefined) {
      reasons.push({
        rule: `--${key} flag`,
        detail: `${flag} wins over the recipe's ${key} ${value}`,
        source: `--${key}`,
      });
      return;
    }
    if (loosens !== undefined && guarded) {
      refused.push(`${key} ${value}`);
      reasons.push({
        rule: "not trusted",
        detail: `${key} ${value} not applied: ${loosens}, and the repository's recipe is not trusted (--trust-project applies it)`,
        source,
        key,
        decisive: true,
      });
      return;
    }
    out[key] = value;
    reasons.push({
      rule: `recipe ${input.name} ${key}`,
      detail:
        loosens !== undefined
          ? `${value} (${loosens}; ${input.fromRepository ? "trusted" : "the person's own recipe"})`
          : value,
      source,
      key,
    });
  };
  consider("agent", recipe.agent === undefined ? undefined : agentLoosens(recipe.agent, input.agents));
  consider("model", undefined);
  consider(
    "mode",
    recipe.mode !== undefined && LOOSE_MODES.has(recipe.mode)
      ? `mode ${recipe.mode} runs calls without asking`
      : undefined,
  );
  const answer = refused.length > 0 ? "refused" : reasons.length > 0 ? "applied" : "none";
  if (answer === "none")
    reasons.push({ rule: "no settings", detail: "the recipe names no agent, model or mode", source, decisive: true });
  else if (answer === "applied" && !reasons.some((r) => r.decisive)) {
    const first = reasons[0];
    if (first) first.decisive = true;
  }
  const decision: RecipeSettings["decision"] = {
    seat: "recipe.settings",
    holder: answer === "applied" ? (Object.keys(out).length > 0 ? "config" : "person") : "code",
    answer,
    reasons,
    subject: { recipe: input.name, file: source, fromRepository: input.fromRepository },
  };
  return {
    ...out,
    decision,
    ...(refused.length > 0
      ? {
          warning: `not applying what recipe ${input.name} (${source}) would loosen (${refused.join("; ")}): the repository's recipe is not trusted; --trust-project applies it`,
        }
      : {}),
  };
}

/** Why an agent runs with more authority than the person's defaults, or undefined when it does not. */
function agentLoosens(name: string, agents: Readonly<Record<string, AgentSettings>>): string | undefined {
  const settings = agents[name];
  if (!settings) return undefined;
  if (settings.mode !== undefined && LOOSE_MODES.has(settings.mode))
    return `agent ${name} runs in mode ${settings.mode}, calls without asking`;
  const allows = Object.entries(settings.permission ?? {}).filter(([, rules]) =>
    JSON.stringify(rules).includes('"allow"'),
  );
  if (allows.length > 0)
    return `agent ${name} has allow rules of its own (${allows.map(([action]) => action).join(", ")})`;
  return undefined;
}
