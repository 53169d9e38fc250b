import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { configFrom } from "../../test/support/config.js";
import { DEFAULTS } from "../config/defaults.js";
import { storage, toolLimits } from "./session-config.js";

// These readers once restated the defaults (`?? 120_000`, `?? 500`); they read the resolved config now.
describe("toolLimits", () => {
  it("takes the shell's timeouts from config", () => {
    const limits = toolLimits(configFrom({ shell: { timeout_ms: 1500, max_timeout_ms: 9000 } }));
    assert.equal(limits.shellTimeoutMs, 1500);
    assert.equal(limits.shellMaxTimeoutMs, 9000);
  });

  it("takes the defaults table's when config sets none, one key at a time", () => {
    assert.deepEqual(toolLimits(configFrom()), {
      shellTimeoutMs: DEFAULTS.shell.timeout_ms,
      shellMaxTimeoutMs: DEFAULTS.shell.max_timeout_ms,
      maxResults: 200,
    });
    const one = toolLimits(configFrom({ shell: { timeout_ms: 1500 } }));
    assert.equal(one.shellTimeoutMs, 1500);
    assert.equal(one.shellMaxTimeoutMs, DEFAULTS.shell.max_timeout_ms);
  });
});

describe("storage", () => {
  it("takes the saved outputs' cap and age from config", () => {
    assert.deepEqual(storage(configFrom({ storage: { output_max_mb: 2, output_max_age_days: 0.5 } })), {
      maxBytes: 2 * 1024 * 1024,
      maxAgeDays: 0.5,
    });
  });

  it("takes the defaults table's when config sets none", () => {
    assert.deepEqual(storage(configFrom()), {
      maxBytes: DEFAULTS.storage.output_max_mb * 1024 * 1024,
      maxAgeDays: DEFAULTS.storage.output_max_age_days,
    });
  });
});
