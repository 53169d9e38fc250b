/**
 * Bundles the interactive terminal (Ink, React and the app) into one file, dist/tui-bundle.js.
 *
 * Why: loaded as separate modules, Ink costs about 0.6 s before the prompt can be drawn —
 * es-toolkit/compat alone loads hundreds of files for the one `throttle` Ink uses, and React
 * loads its development build. One tree-shaken file with React's production build takes a
 * fraction of that. Everything else stays as tsc builds it; only the TUI is bundled.
 */
import { build } from "esbuild";

await build({
  entryPoints: ["dist/tui/load.js"],
  outfile: "dist/tui-bundle.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // React's production build: chosen when bundling, so NODE_ENV is never set for the session's commands.
  define: { "process.env.NODE_ENV": '"production"' },
  // Bundled CommonJS (React) calls require for Node's built-ins.
  banner: {
    js: "import { createRequire as __bosunRequire } from 'node:module'; const require = __bosunRequire(import.meta.url);",
  },
  plugins: [
    {
      // Ink's React DevTools bridge loads only when DEV=true and needs a package bosun does not ship.
      name: "no-devtools",
      setup(bundler) {
        bundler.onResolve({ filter: /\/devtools\.js$/ }, (args) =>
          args.importer.includes("/ink/") ? { path: args.path, namespace: "no-devtools" } : undefined,
        );
        bundler.onLoad({ filter: /.*/, namespace: "no-devtools" }, () => ({
          contents: "throw new Error('React DevTools are not part of bosun');",
        }));
      },
    },
  ],
  logLevel: "warning",
});
