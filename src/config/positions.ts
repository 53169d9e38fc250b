import { createScanner, type JSONScanner } from "jsonc-parser";
import { ConfigError } from "../errors.js";

/**
 * How deep a config may nest, counting every object and array, the outermost included. Bosun's
 * own keys need six (`provider.<name>.models.<id>.price.input` is in the sixth object); the
 * limit is far above that and far below what a recursive walk (the JSONC parser's, zod's,
 * the merge's) can take, so every later step may recurse without a stack to fear. Checked
 * before anything recursive reads the text. The README's configuration section states it.
 */
export const MAX_NESTING = 100;

/** Where a key, or an array element, stands: 1-based line and column of its first character. */
export interface Position {
  line: number;
  column: number;
}

/** Every key's position, looked up by path in one map access per segment. */
export interface PositionIndex {
  /** The deepest position that exists along `path` (so a missing key still gets its parent's line). */
  positionOf(path: readonly (string | number)[]): Position | undefined;
  /** `positionOf(path)?.line`, allocating nothing: asked once for every key loaded. */
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/** A key's or element's position, and the keys or elements of the object or array it holds. */
interface Entry extends Position {
  keys?: Map<string, Entry>;
  items?: Entry[];
}

// jsonc-parser's SyntaxKind is a const enum, which isolatedModules cannot inline.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const COMMA = 5;
const COLON = 6;
const STRING = 10;
const EOF = 17;

/** Where the scan is inside one container: what the nesting error names. */
interface Place {
  array: boolean;
  /** Object: the key whose value comes next (or came last); array: the element's index. */
  key: string;
  index: number;
}

interface Frame extends Place {
  /** The entry whose value this container is (a placeholder for a container nothing names). */
  entry: Entry;
  expectKey: boolean;
  /** Object: the entry of the key whose value comes next. */
  pending: Entry | undefined;
}

/**
 * One pass over the text with the JSONC scanner (no recursion): records where every key and
 * element stands, in a tree of its containers' keys and elements, and throws a ConfigError naming the source,
 * line and key where nesting goes deeper than MAX_NESTING. A repeated key's entry replaces the
 * earlier one, with the value `parse` keeps (the last), so the earlier value's keys are gone too.
 * Lax: on text with syntax errors it goes on (nesting is still checked), its index incomplete;
 * the caller reports those errors and never asks it.
 */
export function indexPositions(text: string, source: string): PositionIndex {
  const scanner = createScanner(text, true);
  const stack: Frame[] = [];
  let root: Entry | undefined;

  for (let token = scanner.scan(); token !== EOF; token = scanner.scan()) {
    const frame = stack[stack.length - 1];
    if (frame && !frame.array && frame.expectKey && token === STRING) {
      const entry = position(scanner);
      frame.key = scanner.getTokenValue();
      // JSON.parse makes it a key, jsonc-parser the object's prototype, a copy drops it: none is config.
      if (frame.key === "__proto__") {
        throw new ConfigError(`${source}:${entry.line}: "__proto__" is not a config key`);
      }
      frame.entry.keys?.set(frame.key, entry);
      frame.pending = entry;
      frame.expectKey = false;
      continue;
    }
    if (token === COLON) continue;
    if (token === COMMA) {
      if (frame?.array) frame.index++;
      else if (frame) frame.expectKey = true;
      continue;
    }
    if (token === CLOSE_BRACE || token === CLOSE_BRACKET) {
      stack.pop();
      continue;
    }
    // A value starts: an array's next element, the value of an object's key, or the whole text.
    let entry: Entry | undefined;
    if (frame?.array) {
      entry = position(scanner);
      if (frame.entry.items) frame.entry.items[frame.index] = entry;
    } else if (frame) {
      entry = frame.pending;
      frame.pending = undefined;
    } else if (!root) {
      entry = root = position(scanner);
    }
    if (token !== OPEN_BRACE && token !== OPEN_BRACKET) continue;
    if (stack.length >= MAX_NESTING) throw tooDeep(source, scanner.getTokenStartLine() + 1, stack);
    const array = token === OPEN_BRACKET;
    // A container in a place nothing names (after a syntax error) still nests: a placeholder holds it.
    const holder = entry ?? position(scanner);
    if (array) holder.items = [];
    else holder.keys = new Map();
    stack.push({ entry: holder, array, key: "", index: 0, expectKey: !array, pending: undefined });
  }

  return indexOf(root);
}

/** Lookups in the entries under `root`. */
function indexOf(root: Entry | undefined): PositionIndex {
  const deepest = (path: readonly (string | number)[]) => {
    let found: Entry | undefined = root;
    for (const segment of path) {
      const next: Entry | undefined = typeof segment === "number" ? found?.items?.[segment] : found?.keys?.get(segment);
      if (!next) break;
      found = next;
    }
    return found;
  };
  return {
    positionOf(path) {
      const found = deepest(path);
      return found ? { line: found.line, column: found.column } : undefined;
    },
    lineOf: (path) => deepest(path)?.line,
  };
}

function position(scanner: JSONScanner): Entry {
  return { line: scanner.getTokenStartLine() + 1, column: scanner.getTokenStartCharacter() + 1 };
}

/** Segments of the key printed before the rest is cut: enough to find the place in the file. */
const SHOWN_SEGMENTS = 6;

function tooDeep(source: string, line: number, stack: readonly Place[]): ConfigError {
  let key = "";
  for (const frame of stack.slice(0, SHOWN_SEGMENTS)) {
    if (frame.array) key += `[${frame.index}]`;
    else if (/^[A-Za-z0-9_$-]{1,40}$/.test(frame.key)) key += `${key === "" ? "" : "."}${frame.key}`;
    else key += `[${JSON.stringify(frame.key.length > 40 ? `${frame.key.slice(0, 40)}…` : frame.key)}]`;
  }
  const where = key === "" ? "" : ` at key ${key}${stack.length > SHOWN_SEGMENTS ? "…" : ""}`;
  return new ConfigError(
    `${source}:${line}: nesting deeper than ${MAX_NESTING} levels${where}; bosun reads config up to ${MAX_NESTING} levels deep`,
  );
}
