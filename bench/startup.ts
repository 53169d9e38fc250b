/**
 * Start-up benchmark: `bosun --version` and `bosun seats` against bare `node -e 0`, run
 * interleaved in one process so machine noise hits all three alike. Prints medians and ratios.
 *   npm run bench            (after npm run build)
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
if (!existsSync(bin)) throw new Error("run `npm run build` first");
const runs = Number(process.env.BENCH_RUNS ?? 30);
const home = mkdtempSync(join(tmpdir(), "bosun-bench-"));
const env = { ...process.env, BOSUN_HOME: home };

const cases: Array<{ name: string; args: string[] }> = [
  { name: "node -e 0", args: ["-e", "0"] },
  { name: "bosun --version", args: [bin, "--version"] },
  { name: "bosun seats", args: [bin, "seats"] },
];

function timeOnce(args: string[]): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, stdio: "ignore" });
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
for (const c of cases) timeOnce(c.args); // warm the file cache
for (let i = 0; i < runs; i++) for (const c of cases) samples.get(c.name)?.push(timeOnce(c.args));
rmSync(home, { recursive: true, force: true });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const baseline = median(samples.get("node -e 0") ?? []);
console.log(`start-up, median of ${runs} interleaved runs (node ${process.version})`);
for (const c of cases) {
  const ms = median(samples.get(c.name) ?? []);
  console.log(`${c.name.padEnd(18)} ${ms.toFixed(1).padStart(7)} ms   ${(ms / baseline).toFixed(2)}x node`);
}
