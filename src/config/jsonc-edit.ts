import { existsSync, readFileSync } from "node:fs";
import { applyEdits, type FormattingOptions, modify } from "jsonc-parser";
import { BosunError, ConfigError } from "../errors.js";
import { writeFileAtomic } from "../util/safe-write.js";
import { type ParsedDocument, parseJsonc } from "./jsonc.js";
import { lineEdits } from "./jsonc-lines.js";

/**
 * Sets (or, with `undefined`, removes) the value at `path` of a JSONC config file, keeping every
 * comment, blank line and the file's own indentation and line ends: only that one property's
 * lines change (jsonc-lines.ts; jsonc-parser's `modify` where the file is not laid out a
 * property a line, or the value is replaced). The result is parsed and handed to `check` (which
 * throws to refuse it) before anything is written, and the file is replaced atomically — a
 * kill mid-write leaves the old file or the new, never half of one. A missing file starts as
 * `{}`. Returns the new text.
 */
export function editJsoncFile(
  file: string,
  path: readonly string[],
  value: unknown,
  check: (document: ParsedDocument) => void = () => {},
  options: { mode?: number } = {},
): string {
  const before = existsSync(file) ? readText(file) : "";
  const text = before.trim() === "" ? "{}\n" : before;
  // A file that does not parse is not edited: modify would guess, and the guess would be written.
  parseJsonc(text, file);
  const formatting = formattingOf(text);
  const unit = formatting.insertSpaces ? " ".repeat(formatting.tabSize ?? 2) : "\t";
  let edits: ReturnType<typeof modify>;
  try {
    edits = lineEdits(text, path, value, unit) ?? modify(text, [...path], value, { formattingOptions: formatting });
  } catch (error) {
    // modify refuses a path through a value that is not an object (`"mcp": 5`).
    throw new ConfigError(`${file}: cannot set ${path.join(".")}: ${(error as Error).message}`);
  }
  let after = applyEdits(text, edits);
  if (!after.endsWith("\n")) after += text.includes("\r\n") ? "\r\n" : "\n";
  check(parseJsonc(after, file));
  try {
    // Through a link (a config file kept in a dotfiles repository): the file it points to is replaced.
    writeFileAtomic(file, after, { followLink: true, parents: true, ...options });
  } catch (error) {
    throw new BosunError(`cannot write ${file}: ${(error as Error).message}`, 1);
  }
  return after;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new BosunError(`cannot read ${file}: ${(error as Error).message}`, 1);
  }
}

/** The file's own indentation (the first indented line's) and line ends; two spaces for a new file. */
export function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
  const tabs = indent.startsWith("\t");
  return {
    insertSpaces: !tabs,
    tabSize: tabs ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}
