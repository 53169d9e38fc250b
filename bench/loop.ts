/**
 * Agent-loop benchmarks, through the real compiled CLI against the instant scripted model server:
 *   (a) harness overhead per step: a 50-step task (49 steps each reading or listing a different
 *       small path, then a final text) run with `bosun run --auto --max-steps 60`. Reported two
 *       ways: wall time / steps (start-up included), and the gap between successive model requests
 *       as the server saw them (one step: stream the reply, parse, decide, run the tool, record it,
 *       send the next request).
 *   (b) cold start: from spawning `bosun run` to the server receiving request 1, against the
 *       whole of `node -e 0`; interleaved so machine noise hits both alike.
 *   (c) a long session: a 600-step task (the same read/list calls, cycled), one step's cost read
 *       off the server's request-to-request gaps around step 50 and around step 600, so a cost
 *       that grows with the session shows as the ratio of the two.
 *
 *   npm run build && npx tsx bench/loop.ts
 *   (BENCH_LOOP_RUNS, BENCH_COLD_RUNS, BENCH_LONG_RUNS, BENCH_LONG_STEPS to change counts)
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { type Script, startScriptedServer } from "../src/devtools/model-server/index.js";
import { type Timed as TimedRun, timedSpawn } from "./support/timed.js";

// BENCH_BIN: another build to measure (e.g. a copy of the one before a change), interleaved by hand.
const bin = process.env.BENCH_BIN ?? fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
if (!existsSync(bin)) throw new Error("run `npm run build` first");
const loopRuns = Number(process.env.BENCH_LOOP_RUNS ?? 5);
const coldRuns = Number(process.env.BENCH_COLD_RUNS ?? 15);
const longRuns = Number(process.env.BENCH_LONG_RUNS ?? 2);
const LONG_STEPS = Number(process.env.BENCH_LONG_STEPS ?? 600);
const STEPS = 50;

const root = mkdtempSync(join(tmpdir(), "bosun-bench-loop-"));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));

/** The project: 25 small files to read and 24 folders to list, all different paths. */
const project = join(root, "project");
const toolSteps = Array.from({ length: STEPS - 1 }, (_, i) => {
  const n = String(i + 1).padStart(2, "0");
  return i % 2 === 0
    ? { name: "read", arguments: { path: `src/file-${n}.js` } }
    : { name: "list", arguments: { path: `dir-${n}` } };
});
mkdirSync(join(project, "src"), { recursive: true });
for (const step of toolSteps) {
  const path = join(project, step.arguments.path);
  if (step.name === "read") writeFileSync(path, `export const value = ${JSON.stringify(path)};\n`.repeat(5));
  else {
    mkdirSync(path);
    writeFileSync(join(path, "a.txt"), "a\n");
    writeFileSync(join(path, "b.txt"), "b\n");
  }
}
spawnSync("git", ["init", "-q", project], { stdio: "ignore" });

interface Timed {
  server: Awaited<ReturnType<typeof startScriptedServer>>;
  /** performance.now() when the server matched request N (index N - 1). */
  arrivals: number[];
}

async function timedServer(script: Script): Promise<Timed> {
  const arrivals: number[] = [];
  const server = await startScriptedServer(script, {
    log: (line) => {
      const found = /^#(\d+) /.exec(line);
      if (found) arrivals[Number(found[1]) - 1] = performance.now();
    },
  });
  return { server, arrivals };
}

/** The person's config (each fresh BOSUN_HOME gets it): a repository's own provider would need trust. */
let userConfig = "{}";
function configure(baseURL: string): void {
  userConfig = JSON.stringify({
    model: "scripted/bench",
    retry: { max_attempts: 1 },
    // Explicit limits: an undescribed model runs with assumed ones (32k window), and a 600-step
    // session would then compact, which is not what this measures.
    provider: {
      scripted: { type: "openai-compatible", baseURL, models: { bench: { context: 10_000_000, output: 32_000 } } },
    },
  });
}

function childEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("BOSUN_")) env[key] = value;
  return { ...env, BOSUN_HOME: home };
}

/** Spawns and waits in the project; `ms` is spawn → exit. */
function timeProcess(args: string[], env: NodeJS.ProcessEnv): Promise<TimedRun> {
  return timedSpawn(process.execPath, args, project, env);
}

let homes = 0;
const freshHome = () => {
  const home = join(root, `home-${++homes}`);
  mkdirSync(home);
  writeFileSync(join(home, "bosun.json"), userConfig);
  return home;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

// (a) overhead per step
const loopScript: Script = {
  rules: [
    {
      reply: [
        ...toolSteps.map((call, i) => ({ toolCalls: [{ id: `b${i + 1}`, ...call }] })),
        { text: "Looked at everything." },
      ],
      times: STEPS,
    },
  ],
};
const wallPerStep: number[] = [];
const gapPerStep: number[] = [];
const allGaps: number[] = [];
const earlyGaps: number[] = [];
const lateGaps: number[] = [];
for (let run = 0; run <= loopRuns; run++) {
  const { server, arrivals } = await timedServer(loopScript);
  configure(server.baseURL);
  const result = await timeProcess(
    [bin, "run", "--auto", "--max-steps", "60", "look at every file and folder"],
    childEnv(freshHome()),
  );
  await server.close();
  if (result.code !== 0 || server.failures.length > 0 || server.requests.length !== STEPS) {
    throw new Error(
      `loop run failed: exit ${result.code}, ${server.requests.length} requests\n${server.failures.join("\n")}\n${result.stderr}`,
    );
  }
  if (!result.stderr.includes(`[done · ${STEPS} step(s)`)) throw new Error(`unexpected end:\n${result.stderr}`);
  if (run === 0) continue; // warm-up: file cache, first compile of the code paths on disk
  const first = arrivals[0] ?? Number.NaN;
  const last = arrivals[STEPS - 1] ?? Number.NaN;
  wallPerStep.push(result.ms / STEPS);
  gapPerStep.push((last - first) / (STEPS - 1));
  for (let i = 1; i < STEPS; i++) {
    const gap = (arrivals[i] ?? Number.NaN) - (arrivals[i - 1] ?? Number.NaN);
    allGaps.push(gap);
    if (i <= 10) earlyGaps.push(gap);
    if (i >= STEPS - 10) lateGaps.push(gap);
  }
}

// (b) cold start to the first model request, interleaved with node -e 0
const coldScript: Script = { rules: [{ reply: { text: "Hi." } }] };
const nodeBare: number[] = [];
const toFirstRequest: number[] = [];
const toExit: number[] = [];
for (let run = 0; run <= coldRuns; run++) {
  const bare = await timeProcess(["-e", "0"], childEnv(root));
  const { server, arrivals } = await timedServer(coldScript);
  configure(server.baseURL);
  const result = await timeProcess([bin, "run", "say hi"], childEnv(freshHome()));
  await server.close();
  if (result.code !== 0 || server.failures.length > 0) throw new Error(`cold run failed:\n${result.stderr}`);
  if (run === 0) continue;
  nodeBare.push(bare.ms);
  toFirstRequest.push((arrivals[0] ?? Number.NaN) - result.start);
  toExit.push(result.ms);
}

// (b') peak memory of the same one-request run and of `node -e 0`, from getrusage at exit (a
// preload writes it; kept out of the timed runs above)
const rssFile = join(root, "rss");
const peakRss = async (args: string[]): Promise<number> => {
  const env = { ...childEnv(freshHome()), BENCH_RSS_FILE: rssFile };
  const preload = fileURLToPath(new URL("./support/peak-rss.cjs", import.meta.url));
  const result = await timeProcess(["--require", preload, ...args], env);
  if (result.code !== 0) throw new Error(`memory run failed:\n${result.stderr}`);
  return Number(readFileSync(rssFile, "utf8")) / 1024;
};
const bareRss: number[] = [];
const runRss: number[] = [];
for (let run = 0; run < 5; run++) {
  bareRss.push(await peakRss(["-e", "0"]));
  const { server } = await timedServer(coldScript);
  configure(server.baseURL);
  runRss.push(await peakRss([bin, "run", "say hi"]));
  await server.close();
}

// (c) a long session: one step's cost near step 50 and near the end, from the server's gaps
const longScript: Script = {
  rules: [
    {
      reply: [
        ...Array.from({ length: LONG_STEPS - 1 }, (_, i) => ({
          toolCalls: [{ id: `l${i + 1}`, ...(toolSteps[i % toolSteps.length] as (typeof toolSteps)[number]) }],
        })),
        { text: "Looked at everything, many times." },
      ],
      times: LONG_STEPS,
    },
  ],
};
/** The median gap of the steps around `at` (request at-5 → request at+5, so 10 steps), per run. */
const around = (arrivals: number[], at: number) => {
  const gaps: number[] = [];
  for (let i = Math.max(1, at - 5); i < Math.min(arrivals.length, at + 5); i++)
    gaps.push((arrivals[i] ?? Number.NaN) - (arrivals[i - 1] ?? Number.NaN));
  return median(gaps);
};
const earlyStep: number[] = [];
const lateStep: number[] = [];
const longBare: number[] = [];
for (let run = 0; run < longRuns; run++) {
  longBare.push((await timeProcess(["-e", "0"], childEnv(root))).ms);
  const { server, arrivals } = await timedServer(longScript);
  configure(server.baseURL);
  const result = await timeProcess(
    [bin, "run", "--auto", "--max-steps", String(LONG_STEPS + 10), "look at every file and folder, again and again"],
    childEnv(freshHome()),
  );
  await server.close();
  if (result.code !== 0 || server.failures.length > 0 || server.requests.length !== LONG_STEPS) {
    throw new Error(
      `long run failed: exit ${result.code}, ${server.requests.length} requests\n${server.failures.join("\n")}\n${result.stderr}`,
    );
  }
  earlyStep.push(around(arrivals, 50));
  lateStep.push(around(arrivals, LONG_STEPS - 5));
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const sortedGaps = [...allGaps].sort((a, b) => a - b);
const p90 = sortedGaps[Math.floor(sortedGaps.length * 0.9)] ?? Number.NaN;
const baseline = median(nodeBare);
console.log(`bosun agent loop, scripted model server (instant replies), node ${process.version}`);
console.log();
console.log(`(a) ${STEPS}-step task (${STEPS - 1} read/list calls + final text), median of ${loopRuns} runs`);
console.log("| measure | median |");
console.log("|---|---|");
console.log(`| wall time per step (spawn → exit, / ${STEPS}) | ${fmt(median(wallPerStep))} |`);
console.log(
  `| server-side time per step (request 1 → request ${STEPS}, / ${STEPS - 1}) | ${fmt(median(gapPerStep))} |`,
);
console.log(`| one step, all ${allGaps.length} gaps: median / p90 | ${fmt(median(allGaps))} / ${fmt(p90)} |`);
console.log(
  `| one step, steps 1–10 / steps ${STEPS - 10}–${STEPS - 1} (the prompt grows) | ${fmt(median(earlyGaps))} / ${fmt(median(lateGaps))} |`,
);
console.log();
console.log(`(b) cold start, median of ${coldRuns} interleaved runs`);
console.log("| case | median | vs `node -e 0` |");
console.log("|---|---|---|");
console.log(`| \`node -e 0\` (spawn → exit) | ${fmt(baseline)} | 1.00x |`);
const ratio = (ms: number) => `${(ms / baseline).toFixed(2)}x`;
const first = median(toFirstRequest);
const exit = median(toExit);
console.log(`| \`bosun run\`: spawn → model request 1 arrives | ${fmt(first)} | ${ratio(first)} |`);
console.log(`| \`bosun run\` one-step task: spawn → exit | ${fmt(exit)} | ${ratio(exit)} |`);
const mib = (n: number) => `${n.toFixed(1)} MiB`;
console.log(
  `| peak RSS, \`bosun run\` one-step task / \`node -e 0\` (median of 5) | ${mib(median(runRss))} / ${mib(median(bareRss))} | ${(median(runRss) / median(bareRss)).toFixed(2)}x |`,
);
console.log();
console.log(
  `(c) ${LONG_STEPS}-step task, one step (median request-to-request gap of 10 steps around it), median of ${longRuns} runs`,
);
console.log("| measure | median | vs `node -e 0` |");
console.log("|---|---|---|");
const early = median(earlyStep);
const late = median(lateStep);
console.log(`| \`node -e 0\` (spawn → exit, this section) | ${fmt(median(longBare))} | 1.00x |`);
const longRatio = (ms: number) => `${(ms / median(longBare)).toFixed(3)}x`;
console.log(`| one step at step 50 | ${fmt(early)} | ${longRatio(early)} |`);
console.log(`| one step at step ${LONG_STEPS - 5} | ${fmt(late)} | ${longRatio(late)} |`);
console.log(`| step ${LONG_STEPS - 5} / step 50 | ${(late / early).toFixed(2)}x | |`);
