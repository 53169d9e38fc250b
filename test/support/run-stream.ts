import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as formats from "ajv-formats";

/** The documented stream: schema/run-stream.v1.json, and a check of lines against it. */
export const STREAM_SCHEMA_PATH = new URL("../../schema/run-stream.v1.json", import.meta.url);

const schema = JSON.parse(readFileSync(STREAM_SCHEMA_PATH, "utf8")) as {
  oneOf: Array<{ $ref: string }>;
  $defs: Record<string, { description?: string; properties?: { type?: { const?: string } } }>;
};

/** The types only the server's stream carries (their description says so): a run never writes them. */
export function serverOnlyTypes(): string[] {
  return documentedTypes().filter((type) => schema.$defs[type]?.description?.startsWith("Only on the server's"));
}

const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
// ajv-formats is CommonJS: under ESM its plugin is the namespace's `default` (module.exports).
(formats as unknown as { default: (ajv: Ajv2020) => Ajv2020 }).default(ajv);
ajv.addSchema(schema, "run-stream");
const validate = ajv.getSchema("run-stream") as NonNullable<ReturnType<typeof ajv.getSchema>>;

/** The event types the schema documents, in its order. */
export function documentedTypes(): string[] {
  return schema.oneOf.map((ref) => {
    const name = ref.$ref.replace("#/$defs/", "");
    const type = schema.$defs[name]?.properties?.type?.const;
    if (type === undefined) throw new Error(`schema: ${ref.$ref} has no type const`);
    return type;
  });
}

/**
 * Every line of a `--format json` run's stdout, parsed and checked against the schema; throws
 * naming the line and what is wrong. Also checks what the schema cannot say: `seq` runs 1, 2, 3…
 */
export function checkedStream(stdout: string): Array<Record<string, unknown> & { type: string }> {
  const lines = stdout.split("\n").filter((line) => line !== "");
  return lines.map((line, index) => {
    const event = JSON.parse(line) as Record<string, unknown> & { type: string };
    if (!validate(event)) {
      // oneOf reports every branch; the event's own type's definition says what is wrong with it.
      const own = documentedTypes().includes(event.type) ? ajv.getSchema(`run-stream#/$defs/${event.type}`) : undefined;
      own?.(event);
      const problems = own
        ? (own.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`)
        : [`no event type "${event.type}" is documented`];
      throw new Error(
        `line ${index + 1} does not match schema/run-stream.v1.json:\n  ${problems.join("\n  ")}\n${line}`,
      );
    }
    if (event.seq !== index + 1) throw new Error(`line ${index + 1} has seq ${event.seq}\n${line}`);
    return event;
  });
}
