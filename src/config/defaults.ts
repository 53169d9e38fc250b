import type { Config } from "./schema.js";

/*
 * The one table of config defaults. The loader applies it as the lowest layer (so provenance
 * names it: layer "default", source "built-in"), the resolved config's type is derived from it,
 * and the JSON schema, the README and the seats' texts read their defaults from it. No reader
 * states a default of its own.
 *
 * Only types come from schema.ts: this file loads no zod, so modules that load at start may read it.
 */

/** Built-in defaults: the lowest layer. Everything a later layer may override. */
export const DEFAULTS = {
  max_steps: 100,
  retry: { max_attempts: 4, max_delay_ms: 30_000 },
  model_wait: { timeout_ms: 60_000, idle_ms: 120_000 },
  repeat_limit: 3,
  parallel_calls: 8,
  output: { max_lines: 2000, max_bytes: 50_000 },
  shell: { timeout_ms: 120_000, max_timeout_ms: 600_000, sandbox: "on" },
  storage: { output_max_mb: 500, output_max_age_days: 7 },
  instructions: { claude_md: true, fetch_timeout_ms: 5_000 },
  delegate: { max_depth: 1, max_parallel: 4, max_steps: 40, result_max_chars: 20_000 },
  compaction: { auto: true, threshold: 0.8, keep_tokens: 20_000, prune_tokens: 40_000 },
  hooks: { stop_limit: 3 },
  goal: { max_steps: 50, max_seconds: 1800, max_cost: 5 },
  undo: { enabled: true, max_file_bytes: 1_000_000 },
} as const;

/**
 * Defaults of keys inside the entries of free-keyed maps and lists (a hook, an MCP server):
 * not a layer, since no entry exists until a layer writes it; the reader of an entry applies them.
 */
export const ENTRY_DEFAULTS = {
  hook: { timeout_ms: 10_000, on_error: "deny" },
  mcp_server: { timeout_ms: 60_000, max_timeout_ms: 600_000, enabled: true },
} as const;

/** Where each kind of entry sits in the config: `*` stands for a map's free key, `[]` for a list's items. */
export const ENTRY_PLACES: Record<keyof typeof ENTRY_DEFAULTS, readonly (readonly string[])[]> = {
  hook: [
    ["hooks", "pre_tool", "[]"],
    ["hooks", "post_tool", "[]"],
    ["hooks", "stop", "[]"],
    ["hooks", "subagent_stop", "[]"],
    ["hooks", "user_prompt_submit", "[]"],
    ["hooks", "session_start", "[]"],
    ["hooks", "notification", "[]"],
    ["hooks", "pre_compact", "[]"],
  ],
  mcp_server: [["mcp", "*"]],
};

// Both tables are checked against the schema's types here, not where they are declared: schema.ts
// reads them for its descriptions, so a `satisfies` on the literals would make their types circular.
// (That a table holds no key the schema lacks is checked by json-schema.test.ts and defaults.test.ts.)
type HookConfig = NonNullable<NonNullable<Config["hooks"]>["pre_tool"]>[number];
type McpServerConfig = NonNullable<Config["mcp"]>[string];
DEFAULTS satisfies Config;
ENTRY_DEFAULTS satisfies { hook: Partial<HookConfig>; mcp_server: Partial<McpServerConfig> };

/** `C` with every key the defaults `D` set made required, all the way down; every other key as it was. */
type WithDefaults<C, D> = Flat<
  Omit<C, keyof D> & {
    [K in keyof D & keyof C]-?: D[K] extends Record<string, unknown>
      ? WithDefaults<NonNullable<C[K]>, D[K]>
      : NonNullable<C[K]>;
  }
>;
type Flat<T> = { [K in keyof T]: T[K] };

/** The merged config as loading returns it: a key with a default always holds a value. */
export type ResolvedConfig = WithDefaults<Config, typeof DEFAULTS>;
