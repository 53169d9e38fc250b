import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

/**
 * The layers of ARCHITECTURE.md ("Layout"), top to bottom: a folder of src/ imports only from
 * folders below it (and freely within itself). Folders on one line are peers: they may not import
 * each other. Folders that do not exist yet hold their place, so the day they appear they are
 * checked.
 *
 * - cli is the face that starts the others (it opens the TUI for an interactive session), so it
 *   sits above them; the TUI, the server and ACP never import each other or cli.
 * - input/ is the faces' input handling (slash commands, `!cmd`, history, path completion),
 *   shared by cli and tui: under the faces, above the runtime.
 * - devtools/ (the scripted model server and the demo) is started by cli's `dev` and `demo`
 *   commands and uses nothing of the agent: under the faces.
 * - src/errors.ts (errors that carry their exit code) is a shared contract like contracts/: every
 *   layer may throw them.
 *
 * Unit tests (`*.test.ts` beside the code) are not bound by the layers: a test may build its
 * fixtures from the real parts above the one it tests (the gate's tests offer the real tool
 * registry and the agent config selects) rather than from fakes. Test support under test/ is
 * outside src/ and not checked either.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["cli"],
  ["tui", "server", "acp"],
  ["devtools"],
  ["input"],
  ["runtime"],
  ["loop"],
  ["calls"],
  ["agents"],
  ["compaction"],
  ["context"],
  ["mcp"],
  ["tools"],
  ["permission"],
  ["model"],
  ["session"],
  ["store"],
  ["seats"],
  ["config"],
  ["contracts", "errors.ts"],
  ["util"],
];

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");

function rank(unit: string): number {
  return LAYERS.findIndex((line) => line.includes(unit));
}

/** The layer unit of a path under src/: its first folder, or the file itself at the top level. */
function unitOf(path: string): string {
  const first = relative(src, path).split("/")[0] as string;
  // An import names the compiled file (`../errors.js`); the layer is the source beside it.
  return first.replace(/\.js$/, ".ts");
}

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Every module a file names: static imports and exports (type-only ones too), `import()` calls and
 * `import("x")` types. Comments are blanked first, so an example in a comment is not an import.
 * (A scan rather than a parse: the TypeScript installed, 7, is the native compiler, without the
 * JavaScript API.)
 */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|(^|[^:"'`\\])\/\/.*$/gm, "$1");
  const pattern = /\b(?:from|import)\s*\(?\s*(["'])([^"'\n]+)\1/g;
  return [...text.matchAll(pattern)].map((match) => match[2] as string);
}

test("every folder of src/ has its place in the layers", () => {
  const units = [...new Set(sources(src).map(unitOf))];
  const unplaced = units.filter((unit) => rank(unit) < 0);
  assert.deepEqual(unplaced, [], `add these to LAYERS in test/layers.test.ts: ${unplaced.join(", ")}`);
});

test("no file under src/ imports from a layer above its own (or from a peer)", () => {
  const offending: string[] = [];
  for (const file of sources(src).filter((path) => !/\.test\.tsx?$/.test(path))) {
    const from = unitOf(file);
    for (const specifier of specifiers(file)) {
      if (!specifier.startsWith(".")) continue;
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(`${src}/`)) continue;
      const to = unitOf(target);
      if (to === from) continue;
      if (rank(to) <= rank(from)) offending.push(`${relative(root, file)} -> ${relative(root, target)}`);
    }
  }
  assert.deepEqual(offending, [], `imports against the layers (file -> target):\n  ${offending.join("\n  ")}`);
});
