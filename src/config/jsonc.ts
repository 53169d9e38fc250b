import { findNodeAtLocation, type Node, type ParseError, parse, parseTree, printParseErrorCode } from "jsonc-parser";
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
        const node = findNodeAtLocation(tree, path.slice(0, length) as (string | number)[]);
        if (node) {
          const target = node.parent?.type === "property" ? node.parent : node;
          return lineAndColumn(text, target.offset).line;
        }
      }
      return undefined;
    },
  };
}

function describe(code: string): string {
  // "PropertyNameExpected" -> "property name expected"
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
