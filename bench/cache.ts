/**
 * Prompt caching, measured on the wire: a 20-step task against the scripted model server speaking
 * Anthropic's protocol, through the real compiled CLI. For each request, the part of its input
 * that a cache breakpoint of the previous request already covered (what Anthropic reads from the
 * cache) is counted, in characters of the request body's prompt (tools, system, messages); the
 * rest is written to the cache at this request's own breakpoint. Reported: the cacheable share of
 * input from step 3 on (goal ≥ 80%), and the input cost with caching against without it, priced
 * as the catalog prices claude-sonnet-4-5 (input 3, cache read 0.3, cache write 3.75 $/MTok).
 *
 *   npm run build && npx tsx bench/cache.ts
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedServer } from "../src/devtools/model-server/index.js";
import { timedSpawn } from "./support/timed.js";

const bin = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const STEPS = 20;
const PRICE = { input: 3, cacheRead: 0.3, cacheWrite: 3.75 };

const root = mkdtempSync(join(tmpdir(), "bosun-bench-cache-"));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const project = join(root, "project");
mkdirSync(project);
for (let i = 1; i < STEPS; i++) writeFileSync(join(project, `f${i}.txt`), `line of file ${i}\n`.repeat(40));
spawnSync("git", ["init", "-q", project], { stdio: "ignore" });

const server = await startScriptedServer({
  rules: [
    {
      reply: [
        ...Array.from({ length: STEPS - 1 }, (_, i) => ({
          toolCalls: [{ id: `r${i + 1}`, name: "read", arguments: { path: `f${i + 1}.txt` } }],
        })),
        { text: "Read them all." },
      ],
    },
  ],
});
const home = join(root, "home");
mkdirSync(home);
writeFileSync(
  join(home, "bosun.json"),
  JSON.stringify({
    model: "scripted/claude-sonnet-4-5",
    provider: { scripted: { type: "anthropic", baseURL: server.baseURL, apiKey: "bench" } },
  }),
);
const env: NodeJS.ProcessEnv = { ...process.env, BOSUN_HOME: home };
for (const key of Object.keys(env)) if (key.startsWith("BOSUN_") && key !== "BOSUN_HOME") delete env[key];
const run = await timedSpawn(process.execPath, [bin, "run", "--auto", "read every file"], project, env);
await server.close();
if (run.code !== 0) throw new Error(`bosun run exited ${run.code}: ${run.stderr}`);

interface Body {
  tools?: unknown[];
  system?: unknown[];
  messages: unknown[];
}
/** The prompt's parts in the order the provider reads them, each as the characters it takes. */
const parts = (body: Body) => [
  JSON.stringify(body.tools ?? []),
  JSON.stringify(body.system ?? []),
  ...body.messages.map((m) => JSON.stringify(m)),
];
const unmarked = (text: string) => text.replaceAll(/,?"cache_control":\{"type":"ephemeral"\}/g, "");
/** How many leading parts end at a breakpoint, the last such one (0: none). */
const markedPrefix = (body: Body) => {
  const all = parts(body);
  let last = 0;
  all.forEach((part, i) => {
    if (part.includes('"cache_control"')) last = i + 1;
  });
  return last;
};

const bodies = server.requests.map((r) => r.json as Body);
let cached = 0;
let total = 0;
let costCached = 0;
let costPlain = 0;
const rows: string[] = [];
bodies.forEach((body, n) => {
  const now = parts(body).map(unmarked);
  const size = now.reduce((sum, p) => sum + p.length, 0);
  // Read from the cache: the previous request's marked prefix, when this one starts with it unchanged.
  let read = 0;
  const before = n > 0 ? (bodies[n - 1] as Body) : undefined;
  if (before) {
    const prefix = parts(before).map(unmarked).slice(0, markedPrefix(before));
    const same = prefix.every((part, i) => now[i] === part);
    if (same) read = prefix.reduce((sum, p) => sum + p.length, 0);
  }
  const written = now.slice(0, markedPrefix(body)).reduce((sum, p) => sum + p.length, 0) - read;
  const rest = size - read - Math.max(0, written);
  costPlain += size * PRICE.input;
  costCached += read * PRICE.cacheRead + Math.max(0, written) * PRICE.cacheWrite + rest * PRICE.input;
  if (n >= 2) {
    cached += read;
    total += size;
  }
  rows.push(`${String(n + 1).padStart(4)}  ${String(size).padStart(7)}  ${String(read).padStart(7)}`);
});

console.log(`request  chars  read from cache\n${rows.join("\n")}`);
console.log(`cacheable share of input, step 3 on: ${((100 * cached) / total).toFixed(1)}%`);
console.log(`input cost with caching against without: ${(costCached / costPlain).toFixed(3)}x`);
