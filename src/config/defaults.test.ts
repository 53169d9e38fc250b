import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { DEFAULTS, ENTRY_DEFAULTS, ENTRY_PLACES, type ResolvedConfig } from "./defaults.js";
import { formatKey, getAt } from "./keypath.js";
import { type LoadedConfig, loadConfig } from "./load.js";
import { leafPaths } from "./merge.js";
import type { Config } from "./schema.js";
import { schemaAt } from "./schema-walk.js";

/** Loads with nothing of the user's: an empty BOSUN_HOME, and `content` as the only layer above the defaults. */
function load(content: unknown = {}, global?: unknown): LoadedConfig {
  const home = mkdtempSync(join(tmpdir(), "bosun-defaults-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "bosun-defaults-cwd-"));
  if (global !== undefined) writeFileSync(join(home, "bosun.json"), JSON.stringify(global));
  return loadConfig({ cwd, env: { BOSUN_HOME: home, BOSUN_CONFIG_CONTENT: JSON.stringify(content) } });
}

/** `value` at `path` of an object built from nothing: one leaf of a layer. */
function nested(path: readonly string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), value) as Record<string, unknown>;
}

const DEFAULTED = leafPaths(DEFAULTS);

describe("the defaults table", () => {
  it("holds keys", () => {
    assert.ok(DEFAULTED.length > 10, `only ${DEFAULTED.length} defaulted keys`);
  });

  it("names only keys the schema has, in the places the schema has entries", () => {
    for (const path of DEFAULTED) assert.ok(schemaAt(path), `${formatKey(path)} is not a config key`);
    for (const [kind, places] of Object.entries(ENTRY_PLACES) as [keyof typeof ENTRY_DEFAULTS, string[][]][]) {
      for (const place of places) {
        for (const key of Object.keys(ENTRY_DEFAULTS[kind])) {
          // schemaAt walks a map's values or a list's items whatever the segment is called.
          const concrete = [...place.map((segment) => (segment === "*" || segment === "[]" ? "0" : segment)), key];
          assert.ok(schemaAt(concrete), `${kind}: ${[...place, key].join(".")} is not a config key`);
        }
      }
    }
  });
});

describe("the resolved config of an empty config", () => {
  const loaded = load();

  it("holds every defaulted key at its default", () => {
    for (const path of DEFAULTED) {
      assert.deepEqual(getAt(loaded.config, path), getAt(DEFAULTS, path), formatKey(path));
    }
  });

  it("says each defaulted value came from the defaults", () => {
    for (const path of DEFAULTED) {
      const key = formatKey(path);
      assert.deepEqual(loaded.origins.get(key), { layer: "default", source: "built-in", key });
    }
  });

  it("is typed so a defaulted key needs no fallback, while a key without a default stays optional", () => {
    const resolved: ResolvedConfig = loaded.config;
    const steps: number = resolved.max_steps;
    const attempts: number = resolved.retry.max_attempts;
    const auto: boolean = resolved.compaction.auto;
    const sandbox: "on" | "off" = resolved.shell.sandbox;
    // @ts-expect-error model has no default: a reader must handle its absence
    const model: string = resolved.model;
    // @ts-expect-error compaction.model has no default, though compaction has others
    const summarizer: string = resolved.compaction.model;
    assert.deepEqual(
      [steps, attempts, auto, sandbox],
      [DEFAULTS.max_steps, DEFAULTS.retry.max_attempts, DEFAULTS.compaction.auto, DEFAULTS.shell.sandbox],
    );
    assert.equal(model, undefined);
    assert.equal(summarizer, undefined);
    // A resolved config is still a config: whatever takes a Config takes it.
    const asConfig: Config = resolved;
    assert.equal(asConfig.max_steps, resolved.max_steps);
  });
});

describe("a defaulted key a layer's reference cannot set", () => {
  it("falls back to its default, named as the default's, and keeps the lower layer's value outranked", () => {
    for (const path of DEFAULTED) {
      const key = formatKey(path);
      const lower = getAt(DEFAULTS, path);
      const loaded = load(nested(path, "{env:BOSUN_TEST_NEVER_SET}"), nested(path, lower));
      assert.deepEqual(getAt(loaded.config, path), lower, key);
      assert.deepEqual(loaded.origins.get(key), { layer: "default", source: "built-in", key });
      assert.deepEqual(
        loaded.unresolved.map((u) => u.key),
        [key],
      );
      assert.deepEqual(
        loaded.shadowed.get(key)?.map((s) => s.origin.layer),
        ["global"],
        key,
      );
    }
  });
});
