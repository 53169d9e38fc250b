import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";
import { ConfigError } from "../errors.js";
import { indexPositions } from "./positions.js";

/** A parsed JSONC document that can still say on which line each key stands. */
export interface ParsedDocument {
  data: unknown;
  /**
   * The line of the key at `path` (or of the array element), or of its deepest existing parent.
   * Where an object repeats a key, the last one wins, as it does in `parse`.
   */
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

/**
 * Parses JSONC (comments, trailing commas). A syntax error names source, line and column; so
 * does nesting deeper than MAX_NESTING, found by one scan of the text before the (recursive)
 * parser runs. That scan also indexes where each key stands, so `lineOf` is a map lookup per
 * segment: the whole is linear in the text however many keys ask.
 */
export function parseJsonc(original: string, source: string): ParsedDocument {
  // A byte-order mark (editors on Windows write one) is no syntax error: read as a space, so
  // every line and column stays where the file has it.
  const text = original.charCodeAt(0) === 0xfeff ? ` ${original.slice(1)}` : original;
  const positions = indexPositions(text, source);
  const { lineOf } = positions;
  // Plain JSON (most config files) through the built-in parser, several times faster; JSONC that
  // is not plain JSON (comments, trailing commas) fails it and goes the general way. Plain JSON
  // reads the same either way: repeated keys keep their first place and take the last value.
  const plain = plainJson(text);
  if (plain.ok) return { data: plain.data, lineOf };
  const errors: ParseError[] = [];
  const data = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const lines = errors.slice(0, 5).map((error) => {
      const at = lineAndColumn(text, error.offset);
      return `${source}:${at.line}:${at.column}: syntax error: ${describe(printParseErrorCode(error.error))}`;
    });
    throw new ConfigError(lines.join("\n"));
  }
  return { data, lineOf };
}

function plainJson(text: string): { ok: true; data: unknown } | { ok: false } {
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function describe(code: string): string {
  // "PropertyNameExpected" -> "property name expected"
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
