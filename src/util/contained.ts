import { isAbsolute, join, resolve, sep } from "node:path";

/** Thrown when a path built from a stored or imported value would leave the folder it belongs in. */
export class PathEscapeError extends Error {
  override name = "PathEscapeError";
  constructor(
    readonly folder: string,
    readonly parts: readonly string[],
  ) {
    super(`${JSON.stringify(parts.join(sep))} does not stay inside ${folder}; refused`);
  }
}

/**
 * `folder` joined with `parts`, when the result lies strictly below `folder`; throws
 * PathEscapeError otherwise. For paths built from values bosun did not just make itself (a session
 * id read from the database, a call id from a model): `../x`, an absolute part, an empty name or
 * a NUL would otherwise put a file, or an allow rule, somewhere else. Lexical — links under the
 * folder are the writer's concern (safe-write.ts judges the real location).
 */
export function containedPath(folder: string, ...parts: string[]): string {
  const base = resolve(folder);
  const bad = parts.some((part) => part === "" || part.includes("\0") || isAbsolute(part));
  const path = resolve(join(base, ...parts));
  const prefix = base.endsWith(sep) ? base : `${base}${sep}`;
  if (bad || !path.startsWith(prefix)) throw new PathEscapeError(base, parts);
  return path;
}
