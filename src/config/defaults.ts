import type { Config } from "./schema.js";

/** Built-in defaults: the lowest layer. Everything a later layer may override. */
export const DEFAULTS: Config = {
  max_steps: 100,
  retry: { max_attempts: 4, max_delay_ms: 30_000 },
};
