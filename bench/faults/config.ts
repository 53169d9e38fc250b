/**
 * Fault benchmark, config piece: loading huge and deep config through the real compiled CLI.
 *   - `bosun config --origin --json` (every key's value, layer, file and line: the work that was
 *     quadratic) on a repository bosun.json of 10,000 and of 100,000 permission rules,
 *   - `bosun config` on 10 MB of long string values (100 agents with 100 kB prompts),
 *   - `bosun config` on 100,000 levels of nesting: the time to its clear error (exit 2).
 * Each is spawn → exit, the median of BENCH_FAULT_RUNS runs (default 3) after a warm-up;
 * `node -e 0` and `bosun config` without a config file are measured alike, for scale.
 *
 *   npm run build && npx tsx bench/faults/config.ts
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { timedSpawn } from "../support/timed.js";

interface Row {
  case: string;
  figure: string;
  goal?: string;
}

interface Case {
  name: string;
  /** The repository's bosun.json; undefined: none. */
  content?: string;
  args: string[];
  code: number;
  goal?: string;
}

export async function measure(): Promise<Row[]> {
  const bin = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
  if (!existsSync(bin)) throw new Error("run `npm run build` first");
  const runs = Number(process.env.BENCH_FAULT_RUNS ?? 3);
  const root = mkdtempSync(join(tmpdir(), "bosun-bench-faults-config-"));
  try {
    const home = join(root, "home");
    mkdirSync(home);
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("BOSUN_")) env[key] = value;
    env.BOSUN_HOME = home;

    const cases: Case[] = [
      { name: "bosun config, no config file (for scale)", args: ["config"], code: 0 },
      {
        name: "bosun config --origin --json, 10,000 keys",
        content: rules(10_000),
        args: ["config", "--origin", "--json"],
        code: 0,
        goal: "< 1 s",
      },
      {
        name: "bosun config --origin --json, 100,000 keys",
        content: rules(100_000),
        args: ["config", "--origin", "--json"],
        code: 0,
        goal: "< 3 s",
      },
      {
        name: "bosun config, 10 MB of long string values",
        content: longValues(),
        args: ["config"],
        code: 0,
        goal: "< 2 s",
      },
      {
        name: "bosun config, 100,000 levels deep: to the nesting error",
        content: `{ "agent": ${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)} }`,
        args: ["config"],
        code: 2,
        goal: "< 1 s",
      },
    ];
    const node: number[] = [];
    const samples = cases.map(() => [] as number[]);
    const projects = cases.map((item, i) => {
      const project = join(root, `project-${i}`);
      mkdirSync(project);
      spawnSync("git", ["init", "-q", project], { stdio: "ignore" });
      if (item.content !== undefined) writeFileSync(join(project, "bosun.json"), item.content);
      return project;
    });
    for (let run = 0; run <= runs; run++) {
      const nodeMs = await timed(process.execPath, ["-e", "0"], root, env, 0);
      // Interleaved, so machine noise hits every case alike.
      const ms: number[] = [];
      for (const [i, item] of cases.entries()) {
        ms.push(await timed(process.execPath, [bin, ...item.args], projects[i] as string, env, item.code));
      }
      if (run === 0) continue; // warm-up: the file cache, the first compile of the code on disk
      node.push(nodeMs);
      for (const [i, value] of ms.entries()) samples[i]?.push(value);
    }
    const nodeMedian = median(node);
    const figure = (ms: number) => `${(ms / 1000).toFixed(2)} s (${(ms / nodeMedian).toFixed(1)}x node -e 0)`;
    return [
      ...cases.map((item, i) => ({
        case: item.name,
        figure: figure(median(samples[i] ?? [])),
        ...(item.goal ? { goal: item.goal } : {}),
      })),
      { case: "node -e 0 (for scale)", figure: `${(nodeMedian / 1000).toFixed(2)} s` },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** `permission.shell` with n patterns, one a line, as a person (or a generator) writes them. */
function rules(n: number): string {
  const lines = Array.from({ length: n }, (_, i) => `      "tool-${i} *": "deny"`);
  return `{\n  "permission": {\n    "shell": {\n${lines.join(",\n")}\n    }\n  }\n}\n`;
}

/** About 10 MB: 100 agents, each with a 100 kB prompt. */
function longValues(): string {
  const agent = Object.fromEntries(
    Array.from({ length: 100 }, (_, i) => [`a${i}`, { description: `agent ${i}`, prompt: "word ".repeat(20_000) }]),
  );
  return JSON.stringify({ agent }, null, 2);
}

/** Spawn → exit in ms, when it exits with `code`; otherwise the benchmark stops, saying why. */
async function timed(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  code: number,
): Promise<number> {
  const run = await timedSpawn(command, args, cwd, env);
  if (run.code !== code) {
    throw new Error(`${args.join(" ").slice(0, 200)} exited ${run.code}, not ${code}:\n${run.stderr.slice(0, 2000)}`);
  }
  return run.ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measure();
  console.log(`bosun fault benchmark: config loading, node ${process.version}`);
  console.log("| case | figure | goal |");
  console.log("|---|---|---|");
  for (const row of rows) console.log(`| ${row.case} | ${row.figure} | ${row.goal ?? "—"} |`);
}
