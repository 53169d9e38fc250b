/**
 * Config keys are paths of segments. Printed with dots (`retry.max_attempts`); a segment that
 * itself holds a dot or bracket is quoted (`provider.openai.models["gpt-4.1"].context`), so a
 * printed key always reads back to the same path.
 */
export type KeyPath = readonly string[];

const PLAIN = /^[A-Za-z0-9_$-]+$/;

export function formatKey(path: KeyPath): string {
  let out = "";
  for (const segment of path) {
    if (PLAIN.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** Reads `a.b["c.d"].e` back into segments. Throws on a malformed key. */
export function parseKey(text: string): string[] {
  const segments: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === ".") {
      i++;
      continue;
    }
    if (ch === "[") {
      const end = text.indexOf("]", i);
      if (end < 0) throw new Error(`unclosed "[" in key ${text}`);
      const inner = text.slice(i + 1, end);
      segments.push(inner.startsWith('"') ? (JSON.parse(inner) as string) : inner);
      i = end + 1;
      continue;
    }
    let j = i;
    while (j < text.length && text[j] !== "." && text[j] !== "[") j++;
    segments.push(text.slice(i, j));
    i = j;
  }
  if (segments.length === 0 || segments.some((s) => s === "")) throw new Error(`malformed key: ${text}`);
  return segments;
}

export function getAt(value: unknown, path: KeyPath): unknown {
  let current = value;
  for (const segment of path) {
    if (!isPlainObject(current)) return undefined;
    current = current[segment];
  }
  return current;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
