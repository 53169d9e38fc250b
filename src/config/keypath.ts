import { isPlainObject } from "../util/object.js";

export { isPlainObject };
/**
 * Config keys are paths of segments. Printed with dots (`retry.max_attempts`); a segment that
 * itself holds a dot or bracket is quoted (`provider.openai.models["gpt-4.1"].context`), so a
 * printed key always reads back to the same path.
 */
export type KeyPath = readonly string[];

const PLAIN = /^[A-Za-z0-9_$-]+$/;

export function formatKey(path: KeyPath): string {
  let out = "";
  for (const segment of path) out = appendKey(out, segment);
  return out;
}

/** `formatKey([...path, segment])` from `formatKey(path)`: a walk prints each key in one step. */
export function appendKey(key: string, segment: string): string {
  if (!PLAIN.test(segment)) return `${key}[${JSON.stringify(segment)}]`;
  return key === "" ? segment : `${key}.${segment}`;
}

/**
 * Reads `a.b["c.d"].e` back into segments: the inverse of `formatKey`. A bracketed segment is
 * a JSON string (so it may hold dots, brackets, quotes, or be empty) or bare text up to `]`.
 * `a.["b"]` is read like `a["b"]`. Throws on a malformed key (`a..b`, `.a`, `a.`, `a[`, `a["b]`).
 */
export function parseKey(text: string): string[] {
  const malformed = (why: string) => new Error(`malformed key ${JSON.stringify(text)}: ${why}`);
  const segments: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (segments.length > 0) {
      if (text[i] === ".") {
        i++;
        if (i >= text.length || text[i] === ".") throw malformed("empty segment");
      } else if (text[i] !== "[") {
        throw malformed(`unexpected ${JSON.stringify(text[i])} after "]"`);
      }
    }
    if (text[i] === "[") {
      if (text[i + 1] === '"') {
        const end = endOfJsonString(text, i + 1);
        if (end < 0 || text[end] !== "]") throw malformed('unclosed "["');
        try {
          segments.push(JSON.parse(text.slice(i + 1, end)) as string);
        } catch {
          throw malformed("bad quoted segment");
        }
        i = end + 1;
      } else {
        const end = text.indexOf("]", i);
        if (end < 0) throw malformed('unclosed "["');
        if (end === i + 1) throw malformed("empty segment");
        segments.push(text.slice(i + 1, end));
        i = end + 1;
      }
      continue;
    }
    let j = i;
    while (j < text.length && text[j] !== "." && text[j] !== "[") j++;
    if (j === i) throw malformed("empty segment");
    segments.push(text.slice(i, j));
    i = j;
  }
  if (segments.length === 0) throw malformed("empty key");
  return segments;
}

/** Index just past the JSON string literal opening at `start`, or -1 when it never closes. */
function endOfJsonString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

export function getAt(value: unknown, path: KeyPath): unknown {
  let current = value;
  for (const segment of path) {
    if (!isPlainObject(current)) return undefined;
    current = current[segment];
  }
  return current;
}

/** Removes the leaf at `path`, and any object left empty by that on the way up. */
export function deleteAt(value: Record<string, unknown>, path: KeyPath): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in value)) return;
  const child = value[head];
  if (rest.length === 0) {
    delete value[head];
    return;
  }
  if (!isPlainObject(child)) return;
  deleteAt(child, rest);
  if (Object.keys(child).length === 0) delete value[head];
}
