import { type Node, type ParseError, parse, parseTree, printParseErrorCode } from "jsonc-parser";
import { ConfigError } from "../errors.js";

/** A parsed JSONC document that can still say on which line each key stands. */
export interface ParsedDocument {
  data: unknown;
  lineOf(path: readonly (string | number)[]): number | undefined;
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Parses JSONC (comments, trailing commas). A syntax error names source, line and column. */
export function parseJsonc(text: string, source: string): ParsedDocument {
  const errors: ParseError[] = [];
  const data = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const lines = errors.slice(0, 5).map((error) => {
      const at = lineAndColumn(text, error.offset);
      return `${source}:${at.line}:${at.column}: syntax error: ${describe(printParseErrorCode(error.error))}`;
    });
    throw new ConfigError(lines.join("\n"));
  }
  let tree: Node | undefined;
  return {
    data,
    lineOf(path) {
      tree ??= parseTree(text, undefined, { allowTrailingComma: true });
      if (!tree) return undefined;
      // Walk to the deepest node that exists, so a bad nested key still gets a line.
      for (let length = path.length; length >= 0; length--) {
        const node = lastNodeAt(tree, path.slice(0, length));
        if (node) {
          const target = node.parent?.type === "property" ? node.parent : node;
          return lineAndColumn(text, target.offset).line;
        }
      }
      return undefined;
    },
  };
}

/**
 * The value node at `path`. Where an object repeats a key, the last one wins, as it does in
 * `parse`, so the line reported is the line of the value actually used.
 */
function lastNodeAt(root: Node, path: readonly (string | number)[]): Node | undefined {
  let node: Node | undefined = root;
  for (const segment of path) {
    if (!node) return undefined;
    if (node.type === "object" && typeof segment === "string") {
      const properties: Node[] = node.children ?? [];
      let found: Node | undefined;
      for (const property of properties) {
        if (property.children?.[0]?.value === segment) found = property.children[1];
      }
      node = found;
    } else if (node.type === "array" && typeof segment === "number") {
      node = node.children?.[segment];
    } else {
      return undefined;
    }
  }
  return node;
}

function describe(code: string): string {
  // "PropertyNameExpected" -> "property name expected"
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
