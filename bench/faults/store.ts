/**
 * Store faults, through the real compiled CLI against the scripted model server:
 *   - a garbage bosun.db: `bosun sessions` from spawn to its one-line explained error (exit 1);
 *   - a read-only home holding 200 sessions: `bosun sessions --all` (the database read in memory:
 *     SQLite cannot make its -shm there) against the same on a writable home;
 *   - a disk that fills up mid-run (root: a 3 MiB tmpfs): the run's exit, then the events kept and
 *     the resume after space is freed;
 *   - `bosun doctor` on a healthy home (bubblewrap probe and one provider GET included).
 *
 *   npm run build && npx tsx bench/faults/store.ts      (BENCH_STORE_RUNS to change the count)
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { type Script, startScriptedServer } from "../../src/devtools/model-server/index.js";
import { SessionStore } from "../../src/store/session-store.js";
import { makeReadOnly } from "../../test/support/read-only.js";
import { mountSmallDisk } from "../../test/support/small-disk.js";

const bin = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const runs = Number(process.env.BENCH_STORE_RUNS ?? 5);

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function bosun(args: string[], cwd: string, home: string): Promise<Ran> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(BOSUN_|XDG_|npm_)/i.test(key)) env[key] = value;
  env.BOSUN_HOME = home;
  env.AI_SDK_LOG_WARNINGS = "false";
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const ms = (value: number) => `${Math.round(value)} ms`;

async function timed(args: string[], cwd: string, home: string, expect: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const ran = await bosun(args, cwd, home);
    if (ran.code !== expect)
      throw new Error(`bosun ${args.join(" ")}: exit ${ran.code}, not ${expect}:\n${ran.stderr}`);
    times.push(ran.ms);
  }
  return times;
}

function userConfig(home: string, baseURL: string): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "bosun.json"),
    JSON.stringify({ model: "scripted/bench", provider: { scripted: { type: "openai-compatible", baseURL } } }),
  );
}

export async function measure(): Promise<Array<{ case: string; figure: string; goal?: string }>> {
  if (!existsSync(bin)) throw new Error("run `npm run build` first");
  const root = mkdtempSync(join(tmpdir(), "bosun-bench-store-"));
  const rows: Array<{ case: string; figure: string; goal?: string }> = [];
  const server = await startScriptedServer({
    rules: [
      {
        match: { lastMessage: "fill the disk" },
        reply: {
          toolCalls: [{ id: "fill", name: "shell", arguments: { command: "head -c 8000000 /dev/zero > big.bin" } }],
        },
      },
      { reply: { text: "Done." } },
    ],
  } satisfies Script);
  try {
    const cwd = join(root, "repo");
    mkdirSync(cwd);

    const garbage = join(root, "garbage");
    mkdirSync(join(garbage, "data"), { recursive: true });
    writeFileSync(join(garbage, "data", "bosun.db"), "not a database\n".repeat(1000));
    const explained = await bosun(["sessions"], cwd, garbage);
    const oneLine = explained.stderr.trim().split("\n").length === 1 && !/\n\s+at /.test(explained.stderr);
    rows.push({
      case: "garbage bosun.db: `bosun sessions` to its explained error",
      figure: `${ms(median(await timed(["sessions"], cwd, garbage, 1)))} (exit ${explained.code}, ${oneLine ? "one line, no stack" : "NOT one line"})`,
      goal: "< 1 s, exit 1, no stack",
    });

    const home = join(root, "home");
    userConfig(home, server.baseURL);
    const store = SessionStore.open(join(home, "data", "bosun.db"));
    for (let i = 0; i < 200; i++) {
      const session = store.create({ directory: cwd, title: `session ${i}` });
      for (let j = 0; j < 20; j++) store.append(session.id, "note", { text: "x".repeat(200), j });
    }
    store.close();
    const writable = median(await timed(["sessions", "--all"], cwd, home, 0));
    const locked = makeReadOnly(home);
    if ("unavailable" in locked) {
      rows.push({
        case: "read-only home: `bosun sessions --all`, 200 sessions",
        figure: `skipped: ${locked.unavailable}`,
      });
    } else {
      try {
        const readOnly = median(await timed(["sessions", "--all"], cwd, home, 0));
        rows.push({
          case: "read-only home: `bosun sessions --all`, 200 sessions (4,200 events)",
          figure: `${ms(readOnly)} (writable home: ${ms(writable)})`,
          goal: "works (exit 0)",
        });
      } finally {
        locked.restore();
      }
    }
    rows.push({
      case: "`bosun doctor`, healthy home",
      figure: ms(median(await timed(["doctor"], cwd, home, 0))),
    });

    const disk = mountSmallDisk(3 * 1024 * 1024);
    if ("unavailable" in disk) {
      rows.push({ case: "disk full mid-run", figure: `skipped: ${disk.unavailable}` });
    } else {
      try {
        const repo = join(disk.path, "repo");
        const smallHome = join(disk.path, "home");
        mkdirSync(repo);
        userConfig(smallHome, server.baseURL);
        const full = await bosun(["run", "--auto", "fill the disk"], repo, smallHome);
        const shown = full.stderr.split("\n").filter((line) => line.startsWith("bosun: "));
        const read = () => {
          const s = SessionStore.open(join(smallHome, "data", "bosun.db"), Date.now, { readonly: true });
          try {
            const [session] = s.list();
            return session ? s.events(session.id) : [];
          } finally {
            s.close();
          }
        };
        const before = read();
        rmSync(join(repo, "big.bin"), { force: true });
        const resumed = await bosun(["run", "-c", "carry on"], repo, smallHome);
        const after = read();
        const kept = before.every((event, i) => JSON.stringify(after[i]) === JSON.stringify(event));
        rows.push({
          case: "disk full mid-run: the run's exit and error",
          figure: `${ms(full.ms)}, exit ${full.code}, ${shown.length === 1 && /SQLITE_FULL|ENOSPC/.test(shown[0] ?? "") ? "one disk-full line" : `${shown.length} error lines`}`,
          goal: "exit 1, the disk-full error only",
        });
        rows.push({
          case: "disk full mid-run: events kept, resume after freeing space",
          figure: `${kept ? before.length : "NOT all"}/${before.length} kept; resume exit ${resumed.code} in ${ms(resumed.ms)}; ${after.filter((e) => e.type === "call.interrupted").length} call marked interrupted`,
          goal: "all kept, resume exit 0",
        });
      } finally {
        disk.unmount();
      }
    }
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measure();
  console.log(`bosun store faults, median of ${runs} runs, node ${process.version}`);
  console.log("| case | figure | goal |");
  console.log("|---|---|---|");
  for (const row of rows) console.log(`| ${row.case} | ${row.figure} | ${row.goal ?? ""} |`);
}
