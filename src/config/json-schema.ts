import { z } from "zod";
import { DEFAULTS, ENTRY_DEFAULTS, ENTRY_PLACES } from "./defaults.js";
import { getAt } from "./keypath.js";
import { leafPaths } from "./merge.js";
import { ConfigSchema } from "./schema.js";

type Json = Record<string, unknown>;

/** The JSON Schema text editors use to complete and check `bosun.json`. */
export function configJsonSchema(): string {
  const schema = z.toJSONSchema(ConfigSchema, { io: "input", target: "draft-2020-12" }) as Json;
  return `${JSON.stringify({ ...withModelObjectForm(withDefaults(schema)), title: "bosun.json" }, null, 2)}\n`;
}

/**
 * Every key the defaults tables fill carries its `default` (an editor shows what leaving it out
 * means), read from the tables themselves. A table key the schema lacks is an error here.
 */
function withDefaults(schema: Json): Json {
  const out = structuredClone(schema);
  for (const path of leafPaths(DEFAULTS)) nodeAt(out, path).default = getAt(DEFAULTS, path);
  for (const [kind, places] of Object.entries(ENTRY_PLACES) as [keyof typeof ENTRY_DEFAULTS, string[][]][]) {
    for (const place of places) {
      for (const [key, value] of Object.entries(ENTRY_DEFAULTS[kind])) nodeAt(out, [...place, key]).default = value;
    }
  }
  return out;
}

/** The JSON Schema node of a key path (`*`: a map's values, `[]`: a list's items). */
function nodeAt(schema: Json, path: readonly string[]): Json {
  let node = schema;
  for (const segment of path) {
    const next =
      segment === "*"
        ? node.additionalProperties
        : segment === "[]"
          ? node.items
          : (node.properties as Json | undefined)?.[segment];
    if (typeof next !== "object" || next === null) {
      throw new Error(`the defaults name ${path.join(".")}, which the config schema does not have`);
    }
    node = next as Json;
  }
  return node;
}

/**
 * The zod schema sees `model` after `model-form.ts` has read its object form as `model` plus
 * `model_wait`; an editor sees the file as written, so the schema offers both forms there.
 */
function withModelObjectForm(schema: Json): Json {
  const properties = schema.properties as Record<string, Json>;
  const { model, model_wait: wait } = properties;
  if (!model || !wait) return schema;
  const { description, ...idForm } = model;
  const objectForm = {
    type: "object",
    description: "The model and how long to wait for it: model (the id) plus model_wait (the bounds)",
    properties: { id: { ...idForm, description }, ...(wait.properties as Json) },
    additionalProperties: false,
  };
  return { ...schema, properties: { ...properties, model: { description, anyOf: [idForm, objectForm] } } };
}
