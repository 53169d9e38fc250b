import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";

/**
 * `@path` imports in instruction files (Claude Code's CLAUDE.md convention, read in AGENTS.md and
 * bosun's own files too): `@relative/file.md` or `@~/file.md`, on its own line or inline, never
 * inside a code span or a fenced block (there `@x` is code, not an import). Pure: finding and
 * resolving only; instructions.ts reads each file through the same checks as the importer.
 */

/** Imports are followed this many files deep (CLAUDE.md -> a -> b -> ... ); deeper ones are listed. */
export const IMPORT_DEPTH = 5;
/** All the files one session imports together are at most this large; later imports are listed. */
export const IMPORT_TOTAL_BYTES = 256 * 1024;

/**
 * `@` at the start or after whitespace or an opening bracket, then a path. A token must look like a
 * path (hold a `/` or a `.`): `@alice` in prose is a mention, not a file. Trailing punctuation of
 * the sentence (`.`, `,`, `)`) is not part of it.
 */
const IMPORT = /(^|[\s(["'])@((?:~\/)?[^\s`"'<>()[\]]+)/g;

/** The `@` paths a file's text imports, in order, each once; code spans and fenced blocks skipped. */
export function importPaths(text: string): string[] {
  const found: string[] = [];
  let fence: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      continue;
    }
    if (opener !== undefined) {
      fence = opener;
      continue;
    }
    for (const match of withoutCodeSpans(line).matchAll(IMPORT)) {
      const path = (match[2] ?? "").replace(/[.,;:!?]+$/, "");
      if (!/[./]/.test(path) || path === "~/" || found.includes(path)) continue;
      found.push(path);
    }
  }
  return found;
}

/** The line with each `` `code` `` span (of any backtick run length) blanked out. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, (span) => " ".repeat(span.length));
}

/** Where an import points: `~/x` under the home folder, anything else from the importing file's folder. */
export function resolveImport(path: string, importer: string, home: string = homedir()): string {
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(dirname(importer), path);
}
