import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as formats from "ajv-formats";
import { boundedRegExp, PatternTimeout } from "../util/bounded-regexp.js";

/**
 * An MCP server's JSON Schema for a tool's arguments, compiled with ajv: the schema the server
 * checks against is the one bosun checks against, so a call it cannot read is never sent
 * blindly. Draft-07 unless `$schema` names 2019-09 or 2020-12. Keywords ajv does not know (a
 * server's own annotations) are ignored, as JSON Schema says; a schema that is itself invalid,
 * names a draft ajv does not support, or has a `$ref` that does not resolve does not compile.
 */
export type CompiledArguments =
  | { ok: true; validate: (value: unknown) => { ok: true } | { ok: false; problems: string[] } }
  | { ok: false; error: string };

type Draft = "2020-12" | "2019-09" | "draft-07";
const instances = new Map<Draft, Ajv>();

/** One ajv per draft, made on first use (each costs milliseconds; a compile costs far less). */
function ajvFor(draft: Draft): Ajv {
  let ajv = instances.get(draft);
  if (!ajv) {
    // The server's patterns, matched against the model's arguments: each match bounded (util/bounded-regexp.ts).
    const options = { allErrors: true, strict: false, logger: false, code: { regExp: boundedRegExp } } as const;
    ajv = draft === "2020-12" ? new Ajv2020(options) : draft === "2019-09" ? new Ajv2019(options) : new Ajv(options);
    // ajv-formats is CommonJS: under ESM its plugin is the namespace's `default` (module.exports).
    (formats as unknown as { default: (ajv: Ajv) => Ajv }).default(ajv);
    instances.set(draft, ajv);
  }
  return ajv;
}

function draftOf(schema: Record<string, unknown>): Draft {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  if (declared.includes("2020-12")) return "2020-12";
  if (declared.includes("2019-09")) return "2019-09";
  return "draft-07";
}

export function compileArguments(schema: unknown): CompiledArguments {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema))
    return { ok: false, error: `its input schema is not a JSON object (${JSON.stringify(schema)?.slice(0, 100)})` };
  const record = schema as Record<string, unknown>;
  const ajv = ajvFor(draftOf(record));
  let check: ValidateFunction;
  try {
    check = ajv.compile(record);
  } catch (error) {
    return { ok: false, error: `its input schema cannot be compiled: ${(error as Error).message}` };
  } finally {
    // Tools of different servers may share an `$id`: none stays registered once compiled.
    try {
      ajv.removeSchema(record);
    } catch {
      // Never added.
    }
  }
  return {
    ok: true,
    validate(value) {
      try {
        if (check(value)) return { ok: true };
      } catch (error) {
        if (error instanceof PatternTimeout) return { ok: false, problems: [`(arguments): ${error.message}`] };
        throw error;
      }
      return { ok: false, problems: (check.errors ?? []).map(describe) };
    },
  };
}

/** One ajv error as the model reads it: where (dotted, like the built-in tools' errors) and what. */
function describe(error: ErrorObject): string {
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
  const at = (extra?: string) => [...path, ...(extra !== undefined ? [extra] : [])].join(".") || "(arguments)";
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${at(String(params.missingProperty))}: missing (required)`;
    case "additionalProperties":
      return `${at()}: unknown argument ${JSON.stringify(params.additionalProperty)}`;
    case "enum":
      return `${at()}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `${at()}: must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${at()}: ${error.message ?? error.keyword}`;
  }
}
