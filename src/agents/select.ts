import { formatKey } from "../config/keypath.js";
import type { LoadedConfig } from "../config/load.js";
import type { Agent } from "../contracts/agent.js";
import type { Answer } from "../contracts/decisions.js";
import { ConfigError, UsageError } from "../errors.js";

export const DEFAULT_AGENT = "build";

/** Agents bosun ships. Config may give them a model, prompt or rules, but plan stays read-only. */
export const BUILTIN_AGENTS: Readonly<Record<string, { description: string; readOnly: boolean }>> = {
  build: { description: "Does the work: reads, edits and runs commands, as the rules allow", readOnly: false },
  plan: {
    description: "Investigates and plans without changing anything: read-only on every route",
    readOnly: true,
  },
};

/**
 * Seat `agent.select`: `--agent <name>` is the person's choice among the built-in agents (build,
 * plan) and the configured ones; without it code takes "build". A custom command's `agent:`
 * chooses for that command's turn (its file holds the choice). An unknown name is an error
 * listing the agents — never a silent default.
 */
export function decideAgent(
  flag: string | undefined,
  config: LoadedConfig,
  command?: { name: string; file: string; agent: string; kind?: "command" | "recipe" },
  /** The surface the person chose it through, when not a terminal's flag (a server's client, an editor). */
  through?: { rule: string; source: string },
): Answer<string> & { agent: Agent } {
  const configured = config.config.agent ?? {};
  const known = [...new Set([...Object.keys(BUILTIN_AGENTS), ...Object.keys(configured)])];
  const name = command?.agent ?? flag ?? DEFAULT_AGENT;
  if (!known.includes(name)) {
    throw new UsageError(
      `unknown agent "${name}"; agents: ${known.join(", ")} (define more under "agent" in bosun.json, or in .bosun/agents/<name>.md)`,
    );
  }
  const settings = configured[name] ?? {};
  const builtin = Object.hasOwn(BUILTIN_AGENTS, name) ? BUILTIN_AGENTS[name] : undefined;
  const settingKeys = Object.keys(settings);
  const origin = settingKeys.map((key) => config.origins.get(`agent.${name}.${key}`)).find(Boolean);
  const agent: Agent = {
    name,
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.prompt ? { prompt: settings.prompt } : {}),
    ...(settings.mode ? { mode: settings.mode } : {}),
    ...(settings.description ? { description: settings.description } : {}),
    ...(settings.tools ? { tools: settings.tools } : {}),
    ...(settings.max_steps ? { maxSteps: settings.max_steps } : {}),
  };
  const readOnly = readOnlyOf(name, builtin?.readOnly === true, settings.read_only, config);
  if (readOnly) agent.readOnly = readOnly;
  return {
    holder: command ? "config" : flag ? "person" : "code",
    answer: name,
    reasons: [
      command
        ? {
            rule: command.kind === "recipe" ? `recipe ${command.name} agent` : `custom command /${command.name} agent`,
            detail: name,
            source: command.file,
            decisive: true,
          }
        : flag
          ? {
              rule: through?.rule ?? "--agent flag",
              detail: name,
              source: through?.source ?? "--agent",
              decisive: true,
            }
          : { rule: "default agent", detail: DEFAULT_AGENT, decisive: true },
      ...(origin
        ? [{ rule: "agent settings", detail: settingKeys.join(", "), source: origin.file ?? origin.source }]
        : []),
      ...(agent.tools
        ? [
            {
              rule: "the agent's tools",
              detail: `${agent.tools.join(", ")}: only these of the session's tools are offered`,
            },
          ]
        : []),
      ...(agent.maxSteps
        ? [{ rule: "the agent's step budget", detail: `${agent.maxSteps} steps a turn (--max-steps overrides it)` }]
        : []),
      ...(readOnly
        ? [
            {
              rule: "read-only",
              detail: `${name} may not edit files, run commands not proven read-only, or use unannotated MCP tools`,
              source: readOnly.source ?? "built-in",
            },
          ]
        : []),
    ],
    agent,
  };
}

/**
 * Whether an agent is read-only, and who made it so. The built-in plan agent always is: a config
 * that says `read_only: false` for it is refused (a repository's bosun.json must not be able to
 * turn "plan" into an agent that edits while the person believes it cannot).
 */
function readOnlyOf(
  name: string,
  builtinReadOnly: boolean,
  configured: boolean | undefined,
  config: LoadedConfig,
): Agent["readOnly"] {
  const key = `agent.${name}.read_only`;
  const origin = config.origins.get(key);
  if (builtinReadOnly) {
    if (configured === false) {
      const where = origin ? `${origin.file ?? origin.source}${origin.line ? `:${origin.line}` : ""}: ` : "";
      throw new ConfigError(
        `${where}key "${formatKey(["agent", name, "read_only"])}": the built-in ${name} agent is always read-only; define an agent of another name to edit`,
      );
    }
    return { holder: "code" };
  }
  if (configured !== true) return undefined;
  return {
    holder: "config",
    ...(origin ? { source: origin.file ?? origin.source, key } : {}),
    ...(origin?.line ? { line: origin.line } : {}),
  };
}
