import { BUILTIN_AGENTS } from "../agents/select.js";
import type { LoadedConfig } from "../config/load.js";
import type { ModeName } from "../contracts/modes.js";
import { listProviders, usable } from "../model/providers.js";
import { MODES } from "../permission/rules/modes.js";
import type { Choice } from "../tui/runner.js";

/** A mode's summary, cut to fit a picker's line. */
const short = (text: string) => (text.length <= 70 ? text : `${text.slice(0, 69)}…`);

/**
 * What /model, /agent and /mode offer, from the session's config; `now` is the one in use
 * (listed even when nothing else names it). Models: config `model`, each
 * agent's model, then every model of a provider that can be called (its listed models, or its
 * default) — as `bosun models` lists them. A provider without credentials offers none.
 */
export function sessionChoices(
  kind: "model" | "agent" | "mode",
  config: LoadedConfig,
  now: string,
  env: NodeJS.ProcessEnv = process.env,
): Choice[] {
  const seen = new Map<string, Choice>();
  const add = (value: string | undefined, detail: string) => {
    if (!value || seen.has(value)) return;
    seen.set(value, { value, detail, ...(value === now ? { current: true } : {}) });
  };
  const agents = config.config.agent ?? {};
  if (kind === "mode") {
    for (const name of Object.keys(MODES) as ModeName[]) add(name, short(MODES[name].summary));
  } else if (kind === "agent") {
    for (const [name, builtin] of Object.entries(BUILTIN_AGENTS)) add(name, short(builtin.description));
    for (const [name, settings] of Object.entries(agents)) add(name, settings.read_only ? "read-only" : "configured");
    add(now, "");
  } else {
    add(config.config.model, "config model");
    for (const [name, settings] of Object.entries(agents)) add(settings.model, `agent ${name}'s model`);
    for (const provider of listProviders(config, env)) {
      if (!usable(provider)) continue;
      const ids = Object.keys(provider.models);
      for (const id of ids.length > 0 ? ids : provider.defaultModel ? [provider.defaultModel] : []) {
        add(`${provider.name}/${id}`, id === provider.defaultModel ? `${provider.name}'s default` : provider.name);
      }
    }
    add(now, "");
  }
  return [...seen.values()];
}
