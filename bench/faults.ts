/**
 * Fault benchmarks, through the real compiled CLI: how long bosun takes to give a clear answer
 * when something goes wrong, and what large inputs cost.
 *   - a provider that accepts the connection and never answers (retry.max_attempts 1): with the
 *     default timeouts and with model.timeout_ms 500
 *   - config load time for 10k / 100k keys and a 10 MB file
 *   - sessions import / why / sessions show / resume of a 10,000-event session
 *   - store faults: a garbage database, a read-only home, bosun doctor, a disk full mid-run
 *
 *   npm run build && npx tsx bench/faults.ts        (BENCH_FAULTS=provider,config,session,store to pick)
 *
 * The default-timeout case waits the full first-byte timeout (about a minute) by design.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

type Figure = { case: string; figure: string; goal?: string };
const parts: Record<string, () => Promise<{ measure: () => Promise<Figure[]> }>> = {
  provider: () => import("./faults/provider.js"),
  config: () => import("./faults/config.js"),
  session: () => import("./faults/session.js"),
  store: () => import("./faults/store.js"),
};

const bin = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
if (!existsSync(bin)) throw new Error("run `npm run build` first");
const chosen = (process.env.BENCH_FAULTS ?? Object.keys(parts).join(",")).split(",").filter(Boolean);

console.log(`bosun under faults, node ${process.version}`);
console.log("| case | figure | goal |");
console.log("|---|---|---|");
for (const name of chosen) {
  const load = parts[name];
  if (!load) throw new Error(`no fault benchmark named ${name}; known: ${Object.keys(parts).join(", ")}`);
  for (const row of await (await load()).measure()) console.log(`| ${row.case} | ${row.figure} | ${row.goal ?? ""} |`);
}
