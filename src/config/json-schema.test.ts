import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { DEFAULTS, ENTRY_DEFAULTS, ENTRY_PLACES } from "./defaults.js";
import { configJsonSchema } from "./json-schema.js";
import { parseJsonc } from "./jsonc.js";
import { getAt } from "./keypath.js";
import { leafPaths } from "./merge.js";
import { expandModelForm } from "./model-form.js";
import { ConfigSchema } from "./schema.js";

const SCHEMA_FILE = new URL("../../schema/bosun.schema.json", import.meta.url);

interface JsonSchema {
  $schema?: string;
  title?: string;
  type?: string;
  additionalProperties?: unknown;
  properties?: Record<string, JsonSchema>;
}

describe("schema/bosun.schema.json", () => {
  it("is current with the zod schema", () => {
    const committed = readFileSync(SCHEMA_FILE, "utf8");
    assert.ok(
      committed === configJsonSchema(),
      "schema/bosun.schema.json is out of date with src/config/schema.ts: run `npm run schema` and commit the result",
    );
  });

  it("is a draft 2020-12 object schema that rejects unknown keys and lists model", () => {
    const schema = JSON.parse(configJsonSchema()) as JsonSchema;
    assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
    assert.equal(schema.title, "bosun.json");
    assert.equal(schema.type, "object");
    assert.equal(schema.additionalProperties, false);
    assert.equal(schema.properties?.retry?.additionalProperties, false);
    assert.deepEqual(Object.keys(schema.properties ?? {}).sort(), Object.keys(ConfigSchema.shape).sort());
    assert.ok("model" in (schema.properties ?? {}));
  });
});

describe("the editor schema checks files as written", () => {
  const validate = new Ajv2020({ strict: false }).compile(JSON.parse(configJsonSchema()));
  it("takes model as an id or as an object with its wait bounds, which the loader also takes", () => {
    for (const model of ["anthropic/claude-sonnet-4-5", { id: "local/coder", timeout_ms: 5000, idle_ms: 2000 }]) {
      assert.ok(validate({ model }), JSON.stringify(validate.errors));
      const doc = expandModelForm(parseJsonc(JSON.stringify({ model }), "bosun.json"), "bosun.json");
      assert.ok(ConfigSchema.safeParse(doc.data).success);
    }
  });
  it("rejects what the loader rejects: an unknown key in the object form, a bound out of range, a number", () => {
    for (const model of [{ id: "a/b", timeoutMs: 5 }, { id: "a/b", idle_ms: 0 }, 42]) {
      assert.equal(validate({ model }), false, JSON.stringify(model));
      const doc = expandModelForm(parseJsonc(JSON.stringify({ model }), "bosun.json"), "bosun.json");
      assert.equal(ConfigSchema.safeParse(doc.data).success, false, JSON.stringify(model));
    }
  });
});

describe("built-in defaults", () => {
  it("pass the schema", () => {
    assert.deepEqual(ConfigSchema.parse(DEFAULTS), DEFAULTS);
  });
});

describe("the editor schema's defaults", () => {
  const schema = JSON.parse(configJsonSchema()) as JsonSchema & Record<string, unknown>;
  /** The node of a key path: `*` a map's values, `[]` a list's items. */
  const nodeAt = (path: readonly string[]) =>
    path.reduce<Record<string, unknown> | undefined>((node, segment) => {
      if (segment === "*") return node?.additionalProperties as Record<string, unknown> | undefined;
      if (segment === "[]") return node?.items as Record<string, unknown> | undefined;
      return (node?.properties as Record<string, Record<string, unknown>> | undefined)?.[segment];
    }, schema);

  it("are the defaults table's, key by key", () => {
    for (const path of leafPaths(DEFAULTS)) {
      assert.deepEqual(nodeAt(path)?.default, getAt(DEFAULTS, path), path.join("."));
    }
  });

  it("are the entry defaults' inside every place such entries sit", () => {
    for (const [kind, places] of Object.entries(ENTRY_PLACES) as [keyof typeof ENTRY_DEFAULTS, string[][]][]) {
      for (const place of places) {
        for (const [key, value] of Object.entries(ENTRY_DEFAULTS[kind])) {
          assert.deepEqual(nodeAt([...place, key])?.default, value, [...place, key].join("."));
        }
      }
    }
  });

  it("are stated nowhere else: a key outside the tables has none", () => {
    assert.equal(nodeAt(["model_wait"])?.default, undefined);
    assert.equal(nodeAt(["compaction", "model"])?.default, undefined);
    assert.equal(nodeAt(["mcp", "*", "command"])?.default, undefined);
  });
});
