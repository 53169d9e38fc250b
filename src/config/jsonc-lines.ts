import { type Edit, findNodeAtLocation, parseTree } from "jsonc-parser";

/**
 * Line-wise edits of a JSONC object, for a file a person keeps one property a line (what config
 * files are): a property is added as lines of its own after the last one, or its lines are
 * taken out whole, and nothing else is touched — a comment at the end of a neighbour's line stays
 * on that line. jsonc-parser's `modify` reformats the neighbour and moves such a comment (or, on
 * removal, drops it). Each returns undefined when the text is not laid out that way (two
 * properties on a line, an empty object); the caller then lets `modify` do it.
 */

/** Adds `key: value` as the last property of the object at `path` (which must exist). */
export function insertLines(text: string, path: readonly string[], key: string, value: unknown, unit: string) {
  const root = parseTree(text);
  const object = root && (path.length === 0 ? root : findNodeAtLocation(root, [...path]));
  const last = object?.type === "object" ? object.children?.at(-1) : undefined;
  if (!last) return undefined;
  const start = lineStart(text, last.offset);
  if (start === undefined) return undefined;
  const tail = lineTail(text, last.offset + last.length);
  if (!tail) return undefined;
  const indent = text.slice(start, last.offset);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const shown = JSON.stringify(value, null, unit).split("\n").join(`${eol}${indent}`);
  const edits: Edit[] = [];
  if (tail.comma === undefined) edits.push({ offset: last.offset + last.length, length: 0, content: "," });
  edits.push({ offset: tail.end, length: 0, content: `${indent}${JSON.stringify(key)}: ${shown}${eol}` });
  return edits;
}

/** Takes the property at `path` out, its whole lines; a comma then left after the new last one goes too. */
export function removeLines(text: string, path: readonly string[]) {
  const root = parseTree(text);
  const property = root ? findNodeAtLocation(root, [...path])?.parent : undefined;
  const siblings = property?.parent?.children;
  if (property?.type !== "property" || !siblings) return undefined;
  const start = lineStart(text, property.offset);
  const tail = lineTail(text, property.offset + property.length);
  if (start === undefined || !tail) return undefined;
  const edits: Edit[] = [{ offset: start, length: tail.end - start, content: "" }];
  const index = siblings.indexOf(property);
  const before = siblings[index - 1];
  if (index === siblings.length - 1 && before) {
    const comma = lineTail(text, before.offset + before.length)?.comma;
    if (comma !== undefined) edits.push({ offset: comma, length: 1, content: "" });
  }
  return edits;
}

/** Where the line of `offset` starts, when only spaces and tabs stand before it there. */
function lineStart(text: string, offset: number): number | undefined {
  let at = offset;
  while (at > 0 && (text[at - 1] === " " || text[at - 1] === "\t")) at--;
  return at === 0 || text[at - 1] === "\n" ? at : undefined;
}

/**
 * What follows a property on its line: an optional comma and one comment, then the line's end.
 * `end` is just past the line break; undefined when anything else stands there.
 */
function lineTail(text: string, offset: number): { comma?: number; end: number } | undefined {
  let at = skipBlanks(text, offset);
  let comma: number | undefined;
  if (text[at] === ",") {
    comma = at;
    at = skipBlanks(text, at + 1);
  }
  if (text.startsWith("//", at)) {
    const newline = text.indexOf("\n", at);
    at = newline < 0 ? text.length : newline;
  } else if (text.startsWith("/*", at)) {
    const close = text.indexOf("*/", at + 2);
    if (close < 0 || text.slice(at, close).includes("\n")) return undefined;
    at = skipBlanks(text, close + 2);
  }
  if (text[at] === "\r") at++;
  if (at < text.length && text[at] !== "\n") return undefined;
  return { ...(comma !== undefined ? { comma } : {}), end: Math.min(at + 1, text.length) };
}

function skipBlanks(text: string, offset: number): number {
  let at = offset;
  while (text[at] === " " || text[at] === "\t") at++;
  return at;
}

/**
 * The line-wise edit setting (or, with undefined, removing) the value at `path`; undefined when
 * `modify` must do it: the value is there already (it is replaced in place), or the layout is not
 * one property a line. A missing parent is added with the value inside it.
 */
export function lineEdits(text: string, path: readonly string[], value: unknown, unit: string): Edit[] | undefined {
  if (value === undefined) return removeLines(text, path);
  const root = parseTree(text);
  if (!root || findNodeAtLocation(root, [...path])) return undefined;
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const parent = depth === 0 ? root : findNodeAtLocation(root, path.slice(0, depth));
    if (!parent) continue;
    if (parent.type !== "object") return undefined;
    let nested = value;
    for (const segment of path.slice(depth + 1).reverse()) nested = { [segment]: nested };
    return insertLines(text, path.slice(0, depth), path[depth] as string, nested, unit);
  }
  return undefined;
}
