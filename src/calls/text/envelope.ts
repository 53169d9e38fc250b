/**
 * One call as a model wrote it in text: a JSON object naming the tool and carrying its arguments,
 * under whichever keys its training used ("name"/"tool", "arguments"/"input"/"parameters").
 * Read strictly first; a broken object (cut off, trailing commas, single quotes) is read only as
 * far as its tool's name and the text of its arguments — the arguments then go through call.parse
 * and call.repair like a native call's unreadable arguments, which repair what they can and
 * otherwise quote them back to the model.
 */
export interface Envelope {
  name: string;
  /** The arguments: an object when they read as JSON, else their raw text (for call.parse). */
  input: unknown;
  /** Why the object did not read as JSON, when it did not. */
  broken?: string;
  /** Whether it had a key for arguments: an object with only a "name" may be any JSON (a package.json). */
  keyed: boolean;
}

const NAME_KEYS = ["name", "tool", "tool_name", "function"] as const;
const INPUT_KEYS = ["arguments", "input", "parameters", "args"] as const;

/** The envelope of a parsed JSON value, or undefined when it names no tool. */
export function envelopeOf(value: unknown): Envelope | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  // OpenAI's own shape written out: {"type":"function","function":{"name":..,"arguments":..}}.
  if (typeof record.function === "object" && record.function !== null) return envelopeOf(record.function);
  const nameKey = NAME_KEYS.find((key) => typeof record[key] === "string");
  if (!nameKey) return undefined;
  const inputKey = INPUT_KEYS.find((key) => key in record);
  return { name: record[nameKey] as string, input: inputKey ? (record[inputKey] ?? {}) : {}, keyed: !!inputKey };
}

/** Reads one object's text: strictly, else loosely (its name and the raw text of its arguments). */
export function readEnvelope(text: string): Envelope | undefined {
  const trimmed = text.trim();
  try {
    return envelopeOf(JSON.parse(trimmed));
  } catch (error) {
    return looseEnvelope(trimmed, (error as Error).message);
  }
}

function looseEnvelope(text: string, broken: string): Envelope | undefined {
  if (!text.startsWith("{")) return undefined;
  const name = new RegExp(`["'](?:${NAME_KEYS.join("|")})["']\\s*:\\s*["']([^"'\\n]{1,200})["']`).exec(text);
  if (!name?.[1]) return undefined;
  const key = new RegExp(`["'](?:${INPUT_KEYS.join("|")})["']\\s*:\\s*`).exec(text);
  if (!key) return { name: name[1], input: {}, broken, keyed: false };
  const rest = text.slice(key.index + key[0].length);
  const end = balancedEnd(rest);
  return {
    name: name[1],
    input: end === undefined ? rest.replace(/\s+$/, "") : rest.slice(0, end),
    broken,
    keyed: true,
  };
}

/**
 * Where the object or array at the start of `text` closes (just past it), skipping strings;
 * undefined when it never does (the text was cut off).
 */
export function balancedEnd(text: string): number | undefined {
  const open = text[0];
  if (open !== "{" && open !== "[") return undefined;
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}
