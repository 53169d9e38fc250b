import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Files bosun reads from its own install (package.json, dist/tui-bundle.js, dist/cli/main.js),
 * found from the install's root rather than from the calling module's place: the same code runs
 * from src/ (tsx), from tsc's dist/ tree and from the bundle in dist/cli/ (and its chunks), each
 * at a different depth, so a relative URL would be right in one layout only.
 */
let root: string | undefined;

/** The folder holding bosun's package.json: the nearest one above this module named "bosun". */
export function ownRoot(): string {
  if (root !== undefined) return root;
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(folder, "package.json");
    if (existsSync(candidate) && isBosun(candidate)) {
      root = folder;
      return folder;
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error("bosun's own package.json was not found above its code");
    folder = parent;
  }
}

/** A path inside bosun's install, given relative to its root (e.g. "dist/tui-bundle.js"). */
export function ownFile(relative: string): string {
  return join(ownRoot(), relative);
}

/** bosun's own version, from its package.json. */
export function ownVersion(): string {
  return (JSON.parse(readFileSync(ownFile("package.json"), "utf8")) as { version: string }).version;
}

function isBosun(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, "utf8")) as { name?: unknown }).name === "bosun";
  } catch {
    return false;
  }
}
