import { type Dirent, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/**
 * Markdown files with YAML front matter (SKILL.md, custom commands): one reader, so both report
 * a broken file the same way. The YAML parser loads with the first such file (about 60 ms), not
 * with every run.
 */
let yamlModule: typeof import("yaml") | undefined;
function yaml(): typeof import("yaml") {
  yamlModule ??= createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return yamlModule;
}

export type Split =
  | { ok: true; present: false; body: string }
  /** The file starts with a `---` line: the text up to the next `---` line, and the body after it. */
  | { ok: true; present: true; frontMatter: string; body: string }
  | { ok: false; reason: string };

/** Splits a file's text into its front matter (between a first line `---` and the next) and its body. */
export function splitFrontMatter(text: string): Split {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const body = (from: number) =>
    lines
      .slice(from)
      .join("\n")
      .replace(/^\s*\n/, "")
      .trimEnd();
  if (lines[0]?.trimEnd() !== "---") return { ok: true, present: false, body: body(0) };
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  if (end === -1) return { ok: false, reason: "front matter is not closed (no second --- line)" };
  return { ok: true, present: true, frontMatter: lines.slice(1, end).join("\n"), body: body(end + 1) };
}

/** Front matter's YAML, parsed (null when empty), or why it is not valid. */
export function parseFrontMatter(frontMatter: string): { ok: true; data: unknown } | { ok: false; reason: string } {
  try {
    // "error": YAML warnings (an unknown tag) are not printed; errors still throw.
    return { ok: true, data: yaml().parse(frontMatter, { logLevel: "error" }) };
  } catch (error) {
    return { ok: false, reason: `front matter is not valid YAML: ${yamlProblem(error)}` };
  }
}

/**
 * Front matter parsed with where each key stands: `lineOf(["permission", "shell"])` is the line, in
 * the file, of that key (the front matter starts on line 2, after the first `---`); a path that is
 * not there gives the line of its nearest written parent, else undefined.
 */
export function parseFrontMatterLines(
  frontMatter: string,
):
  | { ok: true; data: unknown; lineOf: (path: readonly (string | number)[]) => number | undefined }
  | { ok: false; reason: string } {
  const y = yaml();
  const counter = new y.LineCounter();
  const doc = y.parseDocument(frontMatter, { lineCounter: counter, logLevel: "error" });
  if (doc.errors.length > 0)
    return { ok: false, reason: `front matter is not valid YAML: ${yamlProblem(doc.errors[0])}` };
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (error) {
    return { ok: false, reason: `front matter is not valid YAML: ${yamlProblem(error)}` };
  }
  const lineAt = (offset: number) => counter.linePos(offset).line + 1;
  const lineOf = (path: readonly (string | number)[]): number | undefined => {
    for (let length = path.length; length > 0; length--) {
      const line = keyLine(doc.contents, path.slice(0, length), lineAt);
      if (line !== undefined) return line;
    }
    return undefined;
  };
  return { ok: true, data, lineOf };
}

/** The line of the key (or sequence item) at this path in a parsed YAML node, or undefined. */
function keyLine(
  node: unknown,
  path: readonly (string | number)[],
  lineAt: (offset: number) => number,
): number | undefined {
  const y = yaml();
  let current = node;
  let line: number | undefined;
  for (const segment of path) {
    if (y.isMap(current)) {
      const pair = current.items.find((item) => y.isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) return undefined;
      const range = y.isNode(pair.key) ? pair.key.range : undefined;
      line = range ? lineAt(range[0]) : line;
      current = pair.value;
    } else if (y.isSeq(current) && typeof segment === "number") {
      const item = current.items[segment];
      if (!y.isNode(item)) return undefined;
      line = item.range ? lineAt(item.range[0]) : line;
      current = item;
    } else return undefined;
  }
  return line;
}

/** Whether parsed front matter is a mapping (`key: value` lines). */
export function isMapping(data: unknown): data is Record<string, unknown> {
  return data !== null && typeof data === "object" && !Array.isArray(data);
}

/** A YAML error in one line, its line counted in the file (the front matter starts on line 2). */
function yamlProblem(error: unknown): string {
  if (!(error instanceof yaml().YAMLError)) return error instanceof Error ? error.message : String(error);
  const message = (error.message.split("\n", 1)[0] ?? "").replace(/ at line \d+, column \d+:?$/, "").replace(/:$/, "");
  const at = error.linePos?.[0];
  return at ? `${message} (line ${at.line + 1}, column ${at.col})` : message;
}

/** A folder entry that is a folder, or a link to one (a broken link is not). */
export function isFolderEntry(parent: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(join(parent, entry.name)).isDirectory();
  } catch {
    return false;
  }
}
