import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DEFAULTS } from "./defaults.js";
import { configJsonSchema } from "./json-schema.js";
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
    assert.equal(schema.properties?.model?.type, "string");
    assert.equal(schema.properties?.retry?.additionalProperties, false);
    assert.deepEqual(Object.keys(schema.properties ?? {}).sort(), Object.keys(ConfigSchema.shape).sort());
    assert.ok("model" in (schema.properties ?? {}));
  });
});

describe("built-in defaults", () => {
  it("pass the schema", () => {
    assert.deepEqual(ConfigSchema.parse(DEFAULTS), DEFAULTS);
  });
});
