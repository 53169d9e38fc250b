import type { LoadedConfig } from "../config/load.js";
import { ConfigError } from "../errors.js";
import type { Answer, Reason } from "../seats/types.js";
import type { Tool } from "../tools/types.js";
import { closest } from "../util/closest.js";

export type Effect = "allow" | "ask" | "deny";

/** Built-in defaults by kind: reading is free; changing files and running commands ask. */
export const DEFAULT_EFFECTS: Readonly<Record<Tool["kind"], Effect>> = { read: "allow", edit: "ask", shell: "ask" };

/**
 * Seat `call.permission`, in its simplest honest form: a config rule for the tool by name
 * (`permission.<tool>`), else the built-in default for the tool's kind. Every call passes here.
 */
export function authorize(call: { name: string; kind: Tool["kind"] }, config: LoadedConfig): Answer<Effect> {
  // Own keys only: a tool named like an Object.prototype member ("constructor") has no rule.
  const rules = config.config.permission ?? {};
  const rule = Object.hasOwn(rules, call.name) ? rules[call.name] : undefined;
  if (rule) {
    const origin = config.origins.get(`permission.${call.name}`);
    const reason: Reason = {
      rule: `permission.${call.name}`,
      detail: rule,
      decisive: true,
      ...(origin ? { source: origin.file ?? origin.source, key: `permission.${call.name}` } : {}),
      ...(origin?.line ? { line: origin.line } : {}),
    };
    return { holder: "config", answer: rule, reasons: [reason] };
  }
  const effect = DEFAULT_EFFECTS[call.kind];
  return {
    holder: "code",
    answer: effect,
    reasons: [{ rule: "built-in default", detail: `${call.kind} tools: ${effect}`, decisive: true }],
  };
}

/**
 * Config `permission` keys must name tools that exist. A misspelt or miscased key would
 * otherwise be a rule that never matches — a deny that silently does nothing — so it is a
 * config error naming the file, line and key, with the closest tool name.
 */
export function checkRuleNames(config: LoadedConfig, toolNames: readonly string[]): void {
  for (const key of Object.keys(config.config.permission ?? {})) {
    if (toolNames.includes(key)) continue;
    const origin = config.origins.get(`permission.${key}`);
    const where = origin ? `${origin.file ?? origin.source}${origin.line ? `:${origin.line}` : ""}: ` : "";
    const [suggestion] = closest(key, toolNames, 1);
    throw new ConfigError(
      `${where}permission rule for unknown tool "${key}"${suggestion ? ` — did you mean "${suggestion}"?` : ""} (tools: ${toolNames.join(", ")})`,
    );
  }
}
