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

/** Unknown keys listed of one object; the rest are counted. */
export const UNKNOWN_KEYS_LISTED = 5;
/** Problems listed of one layer; the rest are counted. A file of 160,000 bad keys needs no 160,000 lines. */
export const PROBLEMS_LISTED = 20;

/** One line of a message, and where it sorts: file order. */
interface Problem {
  line: number;
  text: string;
}

/**
 * Checks one layer against the schema. Problems are listed in file order (the first
 * PROBLEMS_LISTED of them, then how many more), each naming the source (and line), the key, and
 * what was expected; unknown keys get the closest known key suggested. Linear in the number of
 * problems: a layer of 160,000 unknown keys is told in a few lines.
 */
export function validateLayer(data: unknown, source: LayerSource, asWritten: unknown = data): Config {
  const result = ConfigSchema.safeParse(data);
  if (result.success) return result.data;
  // Values are quoted from the layer as written, so a resolved secret never reaches a message.
  const problems = result.error.issues.flatMap((issue) => describeIssue(issue, asWritten, source));
  // In file order, so the person can fix them top to bottom (a stable sort: same line, zod's order).
  problems.sort((a, b) => a.line - b.line);
  const lines = problems.slice(0, PROBLEMS_LISTED).map((problem) => problem.text);
  const more = problems.length - PROBLEMS_LISTED;
  if (more > 0) lines.push(`${source.label}: and ${more} more ${more === 1 ? "problem" : "problems"}`);
  throw new ConfigError(lines.join("\n"));
}

function at(source: LayerSource, path: readonly (string | number)[], text: string): Problem {
  const line = source.lineOf?.(path) ?? 0;
  return { line, text: `${line ? `${source.label}:${line}` : source.label}: ${text}` };
}

/** Longer keys are not compared for a suggestion (no known key is that long) and are cut when printed. */
const LONG_KEY = 80;

function describeIssue(issue: z.core.$ZodIssue, data: unknown, source: LayerSource): Problem[] {
  const path = issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment));
  const key = issueKey(path);
  if (issue.code === "unrecognized_keys") {
    const known = knownKeysAt(path);
    let listedKnown = false;
    const listed = issue.keys.slice(0, UNKNOWN_KEYS_LISTED).map((unknown) => {
      const full = issueKey([...path, unknown]);
      const [suggestion] = unknown.length <= LONG_KEY ? closest(unknown, known, 1) : [];
      const hint = suggestion ? ` — did you mean "${issueKey([...path, suggestion])}"?` : "";
      // The known keys of one place are listed once, with its first key that has no suggestion.
      const list = known.length > 0 && !suggestion && !listedKnown ? ` (known keys here: ${known.join(", ")})` : "";
      if (list) listedKnown = true;
      return at(source, [...path, unknown], `unknown key "${full}"${hint}${list}`);
    });
    const more = issue.keys.length - listed.length;
    if (more > 0) {
      const summary = at(
        source,
        path,
        `and ${more} more unknown keys ${key === "" ? "at the top level" : `in "${key}"`}`,
      );
      // Right after the keys it follows, wherever the object itself starts.
      listed.push({ ...summary, line: Math.max(...listed.map((problem) => problem.line)) });
    }
    return listed;
  }
  if (issue.code === "invalid_type" || issue.code === "invalid_union") {
    const value = valueAt(data, path);
    // A value under a secret-looking key is described, never quoted.
    const received = isSecretPath(path.map(String)) ? describeShape(value) : describeValue(value);
    // A union says what it takes in its own error (schema.ts); its members' issues would be noise.
    const expected = issue.code === "invalid_type" ? `expected ${expectedName(path, issue.expected)}` : issue.message;
    return [at(source, path, `key "${key}": ${expected}, received ${received}`)];
  }
  return [at(source, path, `key "${key}": ${issue.message}`)];
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
      run.push(segment.length > LONG_KEY ? `${segment.slice(0, LONG_KEY)}…` : segment);
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
