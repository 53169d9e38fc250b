/**
 * Bundles the command line into dist/cli/main.js (the bin) and its lazily loaded chunks in
 * dist/cli/chunks/, from src/ (tsc has already checked it and written the rest of dist/; reading
 * src/ rather than tsc's main.js keeps this step repeatable after the bundle replaced that file).
 *
 * Why: loaded as separate modules, a `bosun run` reads some 330 files before its first model
 * request (zod, the AI SDK and OpenTelemetry's API alone are ~90 ms of resolving and compiling).
 * One tree-shaken file per load point (esbuild's code splitting keeps each `await import()` a
 * separate chunk, so commands and providers a run does not use are never read) takes a fraction.
 *
 * Left outside the bundle, as installed packages: those that find files of their own beside their
 * code (better-sqlite3's native addon, ripgrep's binary, tree-sitter's wasm) — bosun finds its own
 * files from its install's root (src/util/own-files.ts), so moving code into chunks moves nothing
 * it reads. The interactive terminal keeps its own bundle (scripts/bundle-tui.ts), loaded by path.
 */
import { rmSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { build, type Plugin } from "esbuild";
import { ZodFirstPartyTypeKind } from "zod/v3";

rmSync("dist/cli/chunks", { recursive: true, force: true });

/**
 * What a run would load and never use, left out of the bundle (about 570 KB of the 2.4 MB a
 * `bosun run` read): zod's error messages in 40 languages (bosun's are English; the others are
 * never configured), the AI SDK's Vercel AI Gateway with its OIDC client (the provider of a bare
 * model id: bosun always names a provider, so nothing reaches it), all of zod v3 for the one enum
 * of type names the AI SDK compares v3 schemas against (read off zod at build time, so it cannot
 * drift), and OpenTelemetry's API (the AI SDK records spans only when telemetry is enabled, which
 * bosun never asks for; without it, its context calls are plain calls).
 */
const STUBS: Record<string, string> = {
  "zod-locales": 'export { default as en } from "zod/v4/locales/en.js";',
  "gateway-absent": `
const absent = () => { throw new Error("bosun does not use the AI Gateway: name a provider (provider/model)"); };
export class GatewayError extends Error { static isInstance() { return false; } }
export class GatewayAuthenticationError extends GatewayError { static isInstance() { return false; } }
export const createGateway = absent;
export const gateway = { languageModel: absent, textEmbeddingModel: absent, imageModel: absent, embeddingModel: absent };`,
  "zod-v3-kinds": `export const ZodFirstPartyTypeKind = ${JSON.stringify(ZodFirstPartyTypeKind)};`,
  "telemetry-absent": `
const span = { spanContext: () => ({ traceId: "", spanId: "", traceFlags: 0 }), setAttribute() { return span; },
  setAttributes() { return span; }, addEvent() { return span; }, addLink() { return span; }, addLinks() { return span; },
  setStatus() { return span; }, updateName() { return span; }, end() {}, isRecording: () => false, recordException() {} };
const tracer = { startSpan: () => span, startActiveSpan: (_n, ...rest) => rest.find((a) => typeof a === "function")(span) };
export const trace = { getTracer: () => tracer };
export const SpanStatusCode = { UNSET: 0, OK: 1, ERROR: 2 };
const root = { getValue: () => undefined, setValue() { return root; }, deleteValue() { return root; } };
export const context = { active: () => root, with: (_ctx, fn, self, ...args) => fn.call(self, ...args) };`,
};
const leaveOut: Plugin = {
  name: "leave-out",
  setup(bundler) {
    const stub = (name: string) => ({ path: name, namespace: "bosun-stub" });
    bundler.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /zod[\\/]v4[\\/]/.test(args.importer) ? stub("zod-locales") : undefined,
    );
    bundler.onResolve({ filter: /^@ai-sdk\/gateway$/ }, () => stub("gateway-absent"));
    bundler.onResolve({ filter: /^@opentelemetry\/api$/ }, () => stub("telemetry-absent"));
    bundler.onResolve({ filter: /^zod\/v3$/ }, (args) =>
      /@ai-sdk[\\/]provider-utils[\\/]/.test(args.importer) ? stub("zod-v3-kinds") : undefined,
    );
    bundler.onLoad({ filter: /.*/, namespace: "bosun-stub" }, (args) => ({
      contents: STUBS[args.path] ?? "",
      loader: "js",
      resolveDir: process.cwd(),
    }));
  },
};

const result = await build({
  entryPoints: { main: "src/cli/main.ts" },
  outdir: "dist/cli",
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  platform: "node",
  format: "esm",
  target: "node20",
  // Packages' ES module builds first: some CommonJS builds (jsonc-parser's UMD) require their
  // own files by a path computed at run time, which a bundle cannot follow.
  mainFields: ["module", "main"],
  external: ["better-sqlite3", "@vscode/ripgrep", "web-tree-sitter", "tree-sitter-bash"],
  // Bundled CommonJS (ajv, commander) calls require for Node's built-ins.
  banner: {
    js: "import { createRequire as __bosunRequire } from 'node:module'; const require = __bosunRequire(import.meta.url);",
  },
  plugins: [
    leaveOut,
    {
      // The interactive terminal is its own bundle, found by path at run time (src/tui/open-ui.ts);
      // its unbundled fallback (running from source) is not part of the CLI bundle.
      name: "tui-apart",
      setup(bundler) {
        bundler.onResolve({ filter: /^\.\/load\.js$/ }, (args) =>
          args.importer.endsWith("/tui/open-ui.ts") ? { path: "../../tui/load.js", external: true } : undefined,
        );
      },
    },
  ],
  metafile: true,
  logLevel: "warning",
});
// Which sources each output file holds (dist/cli/chunks/inputs.json): what a command loads is then
// still readable by source file — the start-up tests check that a command leaves zod or the config
// loader unread — although it now loads chunks. BUNDLE_META=<file> writes esbuild's whole metafile.
const inputs: Record<string, string[]> = {};
for (const [file, output] of Object.entries(result.metafile.outputs))
  if (file.endsWith(".js")) inputs[relative("dist/cli", file)] = Object.keys(output.inputs);
writeFileSync("dist/cli/chunks/inputs.json", JSON.stringify(inputs));
if (process.env.BUNDLE_META) writeFileSync(process.env.BUNDLE_META, JSON.stringify(result.metafile));
