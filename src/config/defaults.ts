import type { Config } from "./schema.js";

/** Built-in defaults: the lowest layer. Everything a later layer may override. */
export const DEFAULTS: Config = {
  max_steps: 100,
  retry: { max_attempts: 4, max_delay_ms: 30_000 },
  model_wait: { timeout_ms: 60_000, idle_ms: 120_000 },
  repeat_limit: 3,
  parallel_calls: 8,
  output: { max_lines: 2000, max_bytes: 50_000 },
  shell: { timeout_ms: 120_000, max_timeout_ms: 600_000, sandbox: "on" },
  storage: { output_max_mb: 500, output_max_age_days: 7 },
  instructions: { claude_md: true, fetch_timeout_ms: 5_000 },
  compaction: { auto: true, threshold: 0.8, keep_tokens: 20_000, prune_tokens: 40_000 },
};
