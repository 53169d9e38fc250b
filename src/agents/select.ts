import type { LoadedConfig } from "../config/load.js";
import { UsageError } from "../errors.js";
import type { Answer } from "../seats/types.js";

export interface Agent {
  name: string;
  model?: string;
  prompt?: string;
}

export const DEFAULT_AGENT = "build";

/**
 * Seat `agent.select`: `--agent <name>` is the person's choice among the configured agents (and
 * the built-in "build"); without it code takes "build". An unknown name is an error listing
 * the agents — never a silent default.
 */
export function decideAgent(flag: string | undefined, config: LoadedConfig): Answer<string> & { agent: Agent } {
  const configured = config.config.agent ?? {};
  const known = [...new Set([DEFAULT_AGENT, ...Object.keys(configured)])];
  const name = flag ?? DEFAULT_AGENT;
  if (!known.includes(name)) {
    throw new UsageError(
      `unknown agent "${name}"; agents: ${known.join(", ")} (define more under "agent" in bosun.json)`,
    );
  }
  const settings = configured[name] ?? {};
  const origin = config.origins.get(`agent.${name}.model`) ?? config.origins.get(`agent.${name}.prompt`);
  const agent: Agent = {
    name,
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.prompt ? { prompt: settings.prompt } : {}),
  };
  return {
    holder: flag ? "person" : "code",
    answer: name,
    reasons: [
      flag
        ? { rule: "--agent flag", detail: name, source: "--agent", decisive: true }
        : { rule: "default agent", detail: DEFAULT_AGENT, decisive: true },
      ...(origin
        ? [{ rule: "agent settings", detail: Object.keys(settings).join(", "), source: origin.file ?? origin.source }]
        : []),
    ],
    agent,
  };
}
