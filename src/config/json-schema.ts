import { z } from "zod";
import { ConfigSchema } from "./schema.js";

type Json = Record<string, unknown>;

/** The JSON Schema text editors use to complete and check `bosun.json`. */
export function configJsonSchema(): string {
  const schema = z.toJSONSchema(ConfigSchema, { io: "input", target: "draft-2020-12" }) as Json;
  return `${JSON.stringify({ ...withModelObjectForm(schema), title: "bosun.json" }, null, 2)}\n`;
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
