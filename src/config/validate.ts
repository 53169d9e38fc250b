import type { z } from "zod";
import { ConfigError } from "../errors.js";
import { closest } from "../util/closest.js";
import { formatKey, getAt } from "./keypath.js";
import { type Config, ConfigSchema } from "./schema.js";
import { knownKeysAt, schemaAt } from "./schema-walk.js";
import { isSecretPath } from "./secrets.js";

/** Where a layer came from, for error messages: `file:line` when it is a file. */
export interface LayerSource {
  label: string;
  lineOf?: (path: readonly (string | number)[]) => number | undefined;
}

/**
 * Checks one layer against the schema. Every problem is listed, each naming the source (and
 * line), the key, and what was expected; unknown keys get the closest known key suggested.
 */
export function validateLayer(data: unknown, source: LayerSource, asWritten: unknown = data): Config {
  const result = ConfigSchema.safeParse(data);
  if (result.success) return result.data;
  // Values are quoted from the layer as written, so a resolved secret never reaches a message.
  const lines = result.error.issues.flatMap((issue) => describeIssue(issue, asWritten, source));
  // In file order, so the person can fix them top to bottom.
  const lineNumber = (text: string) => Number(/^[^\n]*?:(\d+):/.exec(text)?.[1] ?? 0);
  lines.sort((a, b) => lineNumber(a) - lineNumber(b));
  throw new ConfigError(lines.join("\n"));
}

function where(source: LayerSource, path: readonly (string | number)[]): string {
  const line = source.lineOf?.(path);
  return line ? `${source.label}:${line}` : source.label;
}

function describeIssue(issue: z.core.$ZodIssue, data: unknown, source: LayerSource): string[] {
  const path = issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
  const key = issueKey(path);
  if (issue.code === "unrecognized_keys") {
    const known = knownKeysAt(path);
    return issue.keys.map((unknown) => {
      const full = issueKey([...path, unknown]);
      const [suggestion] = closest(unknown, known, 1);
      const hint = suggestion ? ` — did you mean "${issueKey([...path, suggestion])}"?` : "";
      const list = known.length > 0 && !suggestion ? ` (known keys here: ${known.join(", ")})` : "";
      return `${where(source, [...path, unknown])}: unknown key "${full}"${hint}${list}`;
    });
  }
  if (issue.code === "invalid_type") {
    const value = valueAt(data, path);
    // A value under a secret-looking key is described, never quoted.
    const received = isSecretPath(path.map(String)) ? describeShape(value) : describeValue(value);
    return [
      `${where(source, path)}: key "${key}": expected ${expectedName(path, issue.expected)}, received ${received}`,
    ];
  }
  return [`${where(source, path)}: key "${key}": ${issue.message}`];
}

/** A printed key; an array index reads `fallback[0]`. */
function issueKey(path: readonly (string | number)[]): string {
  let out = "";
  let run: string[] = [];
  const flush = () => {
    if (run.length > 0) out += out === "" ? formatKey(run) : formatKey(run).replace(/^(?!\[)/, ".");
    run = [];
  };
  for (const segment of path) {
    if (typeof segment === "number") {
      flush();
      out += `[${segment}]`;
    } else {
      run.push(segment);
    }
  }
  flush();
  return out;
}

/** The value at a zod issue path: string segments index objects, number segments arrays. */
function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let current = data;
  for (const segment of path) {
    if (typeof segment === "number") current = Array.isArray(current) ? current[segment] : undefined;
    else current = getAt(current, [segment]);
  }
  return current;
}

/** zod calls an integer a number; the person should read what the key really takes. */
function expectedName(path: readonly (string | number)[], expected: string): string {
  const def = schemaAt(path)?._zod.def as { type?: string; format?: string } | undefined;
  if (expected === "int") return "integer";
  return expected === "number" && def?.format === "safeint" ? "integer" : expected;
}

/** The type alone: "string of 41 characters", "object", ... */
export function describeShape(value: unknown): string {
  if (typeof value === "string") return `string of ${value.length} characters`;
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/** "string (\"ten\")", "number (1.5)", "array", "null", ... */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "string")
    return `string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value === "number") return `number (${value})`;
  if (typeof value === "boolean") return `boolean (${value})`;
  return typeof value;
}
