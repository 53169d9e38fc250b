import type { LoadedConfig } from "../config/load.js";
import { globalConfigFile } from "../config/paths.js";
import type { Answer, Holder, Reason } from "../contracts/decisions.js";
import { BosunError } from "../errors.js";
import type { Face } from "../util/face.js";
import { listProviders, usable } from "./providers.js";
import { type ResolvedModel, resolveModel } from "./resolve.js";

export interface SelectionInputs {
  config: LoadedConfig;
  /** The model a resumed session last ran with. */
  sessionModel?: string;
  /** The agent's own configured model. */
  agent?: { name: string; model?: string };
  /** A custom command the person used, whose front matter names a model for its turn. */
  command?: { name: string; file: string; model: string; kind?: "command" | "recipe" };
  env?: NodeJS.ProcessEnv;
  /** Where an error is read: the person's choice is `--model` at the command line, `/model` in the interactive session. */
  face?: Face;
  /** The surface the person chose the model through, when not a terminal's flag (a server's client, an editor). */
  through?: { rule: string; source: string };
}

/** A chosen model that does not resolve: names the chain that chose it and the fix. Exit 2. */
export class ModelSelectionError extends BosunError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** Nothing chose a model and no provider can be called: set-up is missing, not a choice that failed. */
export class NoModelError extends ModelSelectionError {}

/**
 * What to set up when no model can run. `cli`: one line of fix; `tui`: the interactive session
 * stays open and says it in full, with the commands that still work there.
 */
export function noModelAdvice(face: Face, env: NodeJS.ProcessEnv = process.env): string {
  // Which bosun.json: a new user has none yet, and "bosun.json" alone does not say where it goes.
  const file = globalConfigFile(env);
  if (face === "cli")
    return `fix: set ANTHROPIC_API_KEY or OPENAI_API_KEY, or set "model" and its provider in ${file} (see bosun models).`;
  // The JSON stays on one line of its own: cut across lines and wrapped again by the terminal,
  // it could not be copied.
  return [
    "No model is configured and no provider has credentials, so no task can run yet. To set one up:",
    "  - set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY in your environment, then start bosun again;",
    `  - or add a local server (Ollama, llama.cpp, vLLM) as a provider in ${file}:`,
    '    {"provider":{"local":{"type":"openai-compatible","baseURL":"http://127.0.0.1:11434/v1"}}}',
    "    then /model local/<model>;",
    "  - bosun doctor (in another terminal) checks what is set up; bosun models lists the models.",
    "/help lists the commands; /exit or Ctrl-C quits.",
  ].join("\n");
}

interface Candidate {
  rule: string;
  holder: Holder;
  model?: string;
  source?: string;
  line?: number;
}

/**
 * Seat `model.select`. Precedence, highest first: a custom command's `model:` for its own turn
 * (the command's file; the person chose the command), the --model flag (the person), the resumed
 * session's own model, the agent's model, config `model` (with its layer), and only when none
 * of those is set, the first provider with credentials and its default model (code). The first
 * candidate that is set is the answer; if it does not resolve, that is an error — bosun never
 * moves on to a lower candidate. Every candidate is in the reasons.
 */
export function decideModel(inputs: SelectionInputs): Answer<string> & { resolved: ResolvedModel } {
  const { config } = inputs;
  const env = inputs.env ?? process.env;
  const top = config.origins.get("model");
  const fromFlag = top?.layer === "flag";
  const flagModel = fromFlag ? config.config.model : undefined;
  // The config candidate is the highest non-flag layer's model, even when the flag outranks it.
  const below = fromFlag
    ? config.shadowed
        .get("model")
        ?.filter((s) => s.origin.layer !== "flag")
        .at(-1)
    : undefined;
  const configModel = fromFlag ? (below?.value as string | undefined) : config.config.model;
  const origin = fromFlag ? below?.origin : top;
  const candidates: Candidate[] = [
    ...(inputs.command
      ? [
          {
            rule:
              inputs.command.kind === "recipe"
                ? `recipe ${inputs.command.name} model`
                : `custom command /${inputs.command.name} model`,
            holder: "config" as const,
            model: inputs.command.model,
            source: inputs.command.file,
          },
        ]
      : []),
    {
      rule: inputs.through?.rule ?? "--model flag",
      holder: "person",
      ...(flagModel && top ? { model: flagModel, source: inputs.through?.source ?? top.source } : {}),
    },
    {
      rule: "the resumed session's own model",
      holder: "code",
      ...(inputs.sessionModel ? { model: inputs.sessionModel } : {}),
    },
    {
      rule: inputs.agent ? `agent "${inputs.agent.name}" model` : "agent model",
      holder: "config",
      ...(inputs.agent?.model ? { model: inputs.agent.model } : {}),
    },
    {
      rule: `config model${origin && configModel ? ` (${origin.layer} layer)` : ""}`,
      holder: "config",
      ...(configModel && origin
        ? { model: configModel, source: origin.file ?? origin.source, ...(origin.line ? { line: origin.line } : {}) }
        : {}),
    },
  ];

  const chosenIndex = candidates.findIndex((c) => c.model !== undefined);
  const reasons: Reason[] = candidates.map((c, i) => ({
    rule: c.rule,
    detail: c.model === undefined ? "not set" : i === chosenIndex ? c.model : `${c.model} (outranked)`,
    ...(c.source ? { source: c.source } : {}),
    ...(c.line ? { line: c.line } : {}),
    ...(i === chosenIndex ? { decisive: true } : {}),
  }));

  const chosen = candidates[chosenIndex];
  if (chosen?.model) {
    const resolution = resolveModel(chosen.model, config, env);
    if (!resolution.ok) {
      // Typed as /model in the interactive session, the person's choice is named so.
      const by = inputs.face === "tui" && chosen.holder === "person" ? "/model" : chosen.rule;
      throw new ModelSelectionError(
        `model ${chosen.model} (chosen by ${by}) cannot be used: ${resolution.problem}.\n` +
          `fix: ${resolution.fix}.\n${chain(reasons)}`,
      );
    }
    return {
      holder: chosen.holder,
      answer: chosen.model,
      reasons: [...reasons, credentialsReason(resolution.model), limitsReason(resolution.model)],
      resolved: resolution.model,
    };
  }

  // Nothing chose a model: the first provider that can be called, with its default model.
  for (const provider of listProviders(config, env)) {
    const ready = usable(provider) && provider.defaultModel !== undefined;
    reasons.push({
      rule: `provider ${provider.name}`,
      detail: ready
        ? `credentials from ${provider.credentials.source}; default model ${provider.defaultModel}`
        : (provider.problem ??
          (provider.defaultModel ? `no credentials (${provider.credentials.source})` : "no default model")),
      ...(ready ? { decisive: true } : {}),
    });
    if (ready) {
      const ref = `${provider.name}/${provider.defaultModel}`;
      const resolution = resolveModel(ref, config, env);
      if (resolution.ok) {
        return {
          holder: "code",
          answer: ref,
          reasons: [...reasons, credentialsReason(resolution.model), limitsReason(resolution.model)],
          resolved: resolution.model,
        };
      }
    }
  }
  throw new NoModelError(
    `no model is configured and no provider has credentials.\n${noModelAdvice("cli")}\n${chain(reasons)}`,
  );
}

/** Where the model's key comes from (never the key): part of why this model can run. */
function credentialsReason(model: ResolvedModel): Reason {
  const { baseURL, baseURLSource } = model.provider;
  // Where the key goes matters as much as where it comes from: a base URL is named with its source.
  const endpoint = baseURL ? `; requests go to ${baseURL} (${baseURLSource ?? "config"})` : "";
  const settings = model.provider.envSettings.length
    ? `; from the environment: ${model.provider.envSettings.join(", ")}`
    : "";
  return { rule: "credentials", detail: `${model.provider.credentials.source}${endpoint}${settings}` };
}

/** The limits the run uses, and whether bosun assumed them (holder code) or the catalog/config gave them. */
function limitsReason(model: ResolvedModel): Reason {
  const { context, output } = model.info;
  const assumed = model.assumed ?? [];
  const limits = `context ${context}${assumed.includes("context") ? " (assumed)" : ""}, output ${output}${assumed.includes("output") ? " (assumed)" : ""}`;
  if (model.warning) return { rule: "model limits", detail: `${limits}: ${model.warning}; warned when the run starts` };
  if (!model.known) {
    return {
      rule: "model limits",
      detail: `${limits}: ${model.ref} is not in the catalog or config, so bosun assumed its limits (provider ${model.provider.name} accepts any model id)`,
    };
  }
  if (assumed.length > 0) return { rule: "model limits", detail: `${limits}: not all given by the catalog or config` };
  return { rule: "model limits", detail: limits };
}

function chain(reasons: Reason[]): string {
  return `considered:\n${reasons
    .map(
      (r) =>
        `  ${r.decisive ? "*" : "-"} ${r.rule}: ${r.detail ?? ""}${r.source ? ` (${r.source}${r.line ? `:${r.line}` : ""})` : ""}`,
    )
    .join("\n")}`;
}
