import type { z } from "zod";
import { isPlainObject } from "../util/object.js";

export interface Repair {
  path: string;
  kind: "stringified JSON" | "number from string" | "boolean from string" | "lone value to array" | "trailing comma";
  before: unknown;
  after: unknown;
}

type Def = {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  element?: z.core.$ZodType;
};

function defOf(schema: z.core.$ZodType): Def {
  let def = schema._zod.def as Def;
  while ((def.type === "optional" || def.type === "default" || def.type === "nullable") && def.innerType) {
    def = def.innerType._zod.def as Def;
  }
  return def;
}

/**
 * Seat `call.repair`: only repairs whose meaning is not in doubt, each reported with before and
 * after — a whole-arguments object sent as a JSON string, a property sent as a JSON string where
 * an object or array belongs, "3" where a number belongs, "true"/"false" where a boolean
 * belongs, and a lone value where an array belongs. Nothing else is guessed.
 */
export function repairArguments(value: unknown, schema: z.core.$ZodType): { value: unknown; repairs: Repair[] } {
  const repairs: Repair[] = [];
  let input = value;
  if (typeof input === "string") {
    const parsed = tryJson(input);
    if (isPlainObject(parsed)) {
      repairs.push({ path: "(arguments)", kind: "stringified JSON", before: input, after: parsed });
      input = parsed;
    }
  }
  const def = defOf(schema);
  if (!isPlainObject(input) || def.type !== "object" || !def.shape) return { value: input, repairs };
  const out: Record<string, unknown> = { ...input };
  for (const [key, field] of Object.entries(def.shape)) {
    if (!(key in out)) continue;
    const before = out[key];
    const type = defOf(field).type;
    let after: unknown = before;
    let kind: Repair["kind"] | undefined;
    if (typeof before === "string" && (type === "object" || type === "array" || type === "record")) {
      const parsed = tryJson(before);
      if (
        parsed !== undefined &&
        typeof parsed === "object" &&
        parsed !== null &&
        Array.isArray(parsed) === (type === "array")
      ) {
        after = parsed;
        kind = "stringified JSON";
      }
    } else if (
      typeof before === "string" &&
      (type === "number" || type === "int") &&
      /^-?\d+(\.\d+)?$/.test(before.trim())
    ) {
      after = Number(before.trim());
      kind = "number from string";
    } else if (typeof before === "string" && type === "boolean" && /^(true|false)$/.test(before.trim())) {
      after = before.trim() === "true";
      kind = "boolean from string";
    }
    const brokenJson = typeof before === "string" && /^\s*[[{]/.test(before);
    if (type === "array" && kind === undefined && !Array.isArray(before) && before != null && !brokenJson) {
      after = [before];
      kind = "lone value to array";
    }
    if (kind) {
      out[key] = after;
      repairs.push({ path: key, kind, before, after });
    }
  }
  return { value: out, repairs };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Seat `call.repair` on unreadable arguments: commas before a closing brace or bracket (outside
 * strings) are dropped — their meaning is not in doubt. Cut-off JSON and single quotes are not
 * repaired: what was missing, or where a quote was an apostrophe, would be a guess.
 */
export function repairJsonText(text: string): { value: Record<string, unknown>; repair: Repair } | undefined {
  let out = "";
  let quote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') quote = false;
      continue;
    }
    if (c === '"') quote = true;
    if (c === "," && /^\s*[}\]]/.test(text.slice(i + 1))) continue;
    out += c;
  }
  if (out === text) return undefined;
  const parsed = tryJson(out);
  if (!isPlainObject(parsed)) return undefined;
  return { value: parsed, repair: { path: "(arguments)", kind: "trailing comma", before: text, after: parsed } };
}
