/**
 * Fault benchmark, provider piece: how long a silent provider holds a run before the person reads
 * a clear error. The real compiled CLI (`bosun run`, `retry.max_attempts: 1`) against the
 * scripted model server replying `hang` (accept, never answer) or `stallAfterBytes` (some text,
 * then silence). Timed from the server receiving the request to the error line on stderr
 * ("no response from scripted (…) within N s"); spawn → exit is shown beside it.
 *
 *   npm run build && npx tsx bench/faults/provider.ts      (the default case waits ~60 s: it is the point)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { type Reply, startScriptedServer } from "../../src/devtools/model-server/index.js";

const bin = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

interface Row {
  case: string;
  figure: string;
  goal?: string;
}

interface Timing {
  /** Request received by the server → the error line on stderr, in ms. */
  toError: number;
  /** Spawn → exit, in ms. */
  total: number;
}

/** One run of `bosun run` against a server answering with `reply`; throws unless it ends with the clear error. */
async function timeToError(
  root: string,
  reply: Reply,
  extra: Record<string, unknown>,
  expect: RegExp,
): Promise<Timing> {
  let received = Number.NaN;
  const server = await startScriptedServer(
    { rules: [{ reply }] },
    {
      log: (line) => {
        if (/^#1 /.test(line) && Number.isNaN(received)) received = performance.now();
      },
    },
  );
  try {
    const home = mkdtempSync(join(root, "home-"));
    writeFileSync(
      join(home, "bosun.json"),
      JSON.stringify({
        model: "scripted/bench",
        retry: { max_attempts: 1 },
        provider: { scripted: { type: "openai-compatible", baseURL: server.baseURL } },
        ...extra,
      }),
    );
    const project = mkdtempSync(join(root, "project-"));
    spawnSync("git", ["init", "-q", project], { stdio: "ignore" });
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("BOSUN_")) env[key] = value;
    const started = performance.now();
    const child = spawn(process.execPath, [bin, "run", "hello?"], {
      cwd: project,
      env: { ...env, BOSUN_HOME: home, AI_SDK_LOG_WARNINGS: "false" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    let errorAt = Number.NaN;
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (Number.isNaN(errorAt) && expect.test(stderr)) errorAt = performance.now();
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (exit) => resolve(exit));
    });
    const total = performance.now() - started;
    if (code !== 1 || Number.isNaN(errorAt) || /cannot connect/i.test(stderr)) {
      throw new Error(`expected exit 1 with ${expect}, got exit ${code}:\n${stderr}`);
    }
    return { toError: errorAt - received, total };
  } finally {
    await server.close();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
const figure = (t: Timing) => `${seconds(t.toError)} (spawn → exit ${seconds(t.total)})`;

export async function measure(): Promise<Row[]> {
  if (!existsSync(bin)) throw new Error("run `npm run build` first");
  const root = mkdtempSync(join(tmpdir(), "bosun-bench-faults-provider-"));
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  process.on("exit", cleanup);
  try {
    mkdirSync(root, { recursive: true });
    const hang = /no response from scripted \(.*\) within [\d.]+ s/;
    const stall = /no response from scripted \(.*\): it stopped sending for [\d.]+ s/;
    const text = "one two three four five six seven eight nine ten";
    const fast = await timeToError(root, { hang: true }, { model_wait: { timeout_ms: 500 } }, hang);
    const stalled = await timeToError(root, { text, stallAfterBytes: 900 }, { model_wait: { idle_ms: 500 } }, stall);
    const defaults = await timeToError(root, { hang: true }, {}, hang);
    return [
      {
        case: "hanging provider, retry.max_attempts 1, defaults: request → clear error",
        figure: figure(defaults),
        goal: "≤ 65 s",
      },
      {
        case: "hanging provider, retry.max_attempts 1, model_wait.timeout_ms 500: request → clear error",
        figure: figure(fast),
        goal: "≤ 1 s",
      },
      {
        case: "stream stalled after text, model_wait.idle_ms 500: request → clear error",
        figure: figure(stalled),
      },
    ];
  } finally {
    cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measure();
  console.log("| case | figure | goal |");
  console.log("|---|---|---|");
  for (const row of rows) console.log(`| ${row.case} | ${row.figure} | ${row.goal ?? "—"} |`);
}
