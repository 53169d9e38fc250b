import { DEFAULTS } from "../../config/defaults.js";
import { isPlainObject } from "../../util/object.js";

/**
 * Budgets that spend the person's money and time: steps, goal budgets (seconds, dollars), how many
 * delegates and how deep, retries, how often stop hooks may send the agent back. A repository may
 * lower any of them (a tighter budget takes nothing from the person), but a value above the
 * built-in default is the repository deciding to spend more than bosun would — a loosening that
 * waits for trust (seat project.trust) like an allow rule. Compared with the default, not with the
 * person's own config: the person's own higher value still applies when the repository's is left out.
 */
const BUDGETS: readonly (readonly [section: string | undefined, key: string, limit: number])[] = [
  [undefined, "max_steps", DEFAULTS.max_steps],
  ["goal", "max_steps", DEFAULTS.goal.max_steps],
  ["goal", "max_seconds", DEFAULTS.goal.max_seconds],
  ["goal", "max_cost", DEFAULTS.goal.max_cost],
  ["delegate", "max_depth", DEFAULTS.delegate.max_depth],
  ["delegate", "max_parallel", DEFAULTS.delegate.max_parallel],
  ["delegate", "max_steps", DEFAULTS.delegate.max_steps],
  ["retry", "max_attempts", DEFAULTS.retry.max_attempts],
  ["hooks", "stop_limit", DEFAULTS.hooks.stop_limit],
];

const over = (value: unknown, limit: number): value is number => typeof value === "number" && value > limit;

/** `goal.max_cost 50 (over the default 5)` for each budget one project file raises. */
export function budgetLoosening(data: Record<string, unknown>): string[] {
  const items: string[] = [];
  for (const [section, key, limit] of BUDGETS) {
    const holder = section === undefined ? data : data[section];
    if (!isPlainObject(holder) || !over(holder[key], limit)) continue;
    items.push(`${section ? `${section}.` : ""}${key} ${holder[key]} (over the default ${limit})`);
  }
  if (isPlainObject(data.agent)) {
    for (const [name, agent] of Object.entries(data.agent)) {
      if (isPlainObject(agent) && over(agent.max_steps, DEFAULTS.max_steps))
        items.push(`agent ${name} max_steps ${agent.max_steps} (over the default ${DEFAULTS.max_steps})`);
    }
  }
  return items;
}

/** The file's content with each raised budget left out (the lower layers' value applies). */
export function withoutBudgetLoosening(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  for (const [section, key, limit] of BUDGETS) {
    if (section === undefined) {
      if (over(out[key], limit)) delete out[key];
      continue;
    }
    const holder = out[section];
    if (!isPlainObject(holder) || !over(holder[key], limit)) continue;
    const { [key]: _, ...rest } = holder;
    out[section] = rest;
  }
  if (isPlainObject(out.agent)) {
    out.agent = Object.fromEntries(
      Object.entries(out.agent).map(([name, agent]) => {
        if (!isPlainObject(agent) || !over(agent.max_steps, DEFAULTS.max_steps)) return [name, agent];
        const { max_steps: _, ...rest } = agent;
        return [name, rest];
      }),
    );
  }
  return out;
}
