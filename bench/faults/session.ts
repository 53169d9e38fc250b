/**
 * Fault benchmark, session piece: a 10,000-event session through the real compiled CLI.
 *   - `bosun sessions import` of a generated export (every event checked against its schema),
 *   - `bosun why` (the ledger), `bosun sessions show`,
 *   - a resume: `bosun run -c --auto` one step against the instant scripted model server (the
 *     lease, session.recover's scan of the whole log, the projection of 10,000 events, one request).
 * Each is spawn → exit, the median of BENCH_FAULT_RUNS runs (default 3) after a warm-up; `node -e 0`
 * is measured alike, for scale.
 *
 *   npm run build && npx tsx bench/faults/session.ts
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ulid } from "ulid";
import { startScriptedServer } from "../../src/devtools/model-server/index.js";
import { timedSpawn } from "../support/timed.js";

const EVENTS = 10_000;

interface Row {
  case: string;
  figure: string;
  goal?: string;
}

export async function measure(): Promise<Row[]> {
  const bin = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
  if (!existsSync(bin)) throw new Error("run `npm run build` first");
  const runs = Number(process.env.BENCH_FAULT_RUNS ?? 3);
  const root = mkdtempSync(join(tmpdir(), "bosun-bench-faults-session-"));
  const server = await startScriptedServer({ rules: [{ reply: { text: "Done." } }] });
  try {
    const project = join(root, "project");
    mkdirSync(project);
    spawnSync("git", ["init", "-q", project], { stdio: "ignore" });
    const home = join(root, "home");
    mkdirSync(home);
    writeFileSync(
      join(home, "bosun.json"),
      JSON.stringify({
        model: "scripted/bench",
        retry: { max_attempts: 1 },
        provider: { scripted: { type: "openai-compatible", baseURL: server.baseURL } },
      }),
    );
    const file = join(root, "session.json");
    const id = ulid();
    writeFileSync(file, JSON.stringify(generatedExport(id, realpathSync(project))));
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("BOSUN_")) env[key] = value;
    env.BOSUN_HOME = home;

    const time = async (args: string[], code = 0): Promise<number> => {
      const result = await timedSpawn(process.execPath, args, project, env);
      if (result.code !== code) throw new Error(`${args.join(" ")} exited ${result.code}:\n${result.stderr}`);
      return result.ms;
    };
    const cli = (...args: string[]) => [bin, ...args];
    const samples = { node: [] as number[], import: [] as number[], why: [] as number[], show: [] as number[] };
    const resume: number[] = [];
    for (let run = 0; run <= runs; run++) {
      const node = await time(["-e", "0"]);
      if (run > 0) await time(cli("sessions", "delete", id, "--yes"));
      const imported = await time(cli("sessions", "import", file));
      const why = await time(cli("why", id));
      const show = await time(cli("sessions", "show", id));
      if (run === 0) continue; // warm-up: the file cache, the first compile of the code on disk
      samples.node.push(node);
      samples.import.push(imported);
      samples.why.push(why);
      samples.show.push(show);
    }
    // Resumes last: each appends a turn, so the log grows by a few events a run.
    for (let run = 0; run <= runs; run++) {
      const ms = await time(cli("run", "-c", "--auto", "one more step"));
      if (run > 0) resume.push(ms);
    }
    if (server.failures.length > 0) throw new Error(server.failures.join("\n"));
    const node = median(samples.node);
    const figure = (ms: number) => `${(ms / 1000).toFixed(2)} s (${(ms / node).toFixed(1)}x node -e 0)`;
    return [
      {
        case: `sessions import, ${EVENTS.toLocaleString("en-US")} events (every one schema-checked)`,
        figure: figure(median(samples.import)),
        goal: "< 2 s",
      },
      {
        case: `why, ${EVENTS.toLocaleString("en-US")}-event session`,
        figure: figure(median(samples.why)),
        goal: "< 1 s",
      },
      {
        case: `sessions show, ${EVENTS.toLocaleString("en-US")}-event session`,
        figure: figure(median(samples.show)),
        goal: "< 1 s",
      },
      {
        case: `resume (run -c, one step, instant model), ${EVENTS.toLocaleString("en-US")}-event session`,
        figure: figure(median(resume)),
        goal: "< 3 s",
      },
      { case: "node -e 0 (for scale)", figure: `${(node / 1000).toFixed(2)} s` },
    ];
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * An export as a long-lived session leaves it: turns of a user message, a reply with a read, its
 * write-ahead record and result, the final reply, usage, the turn.done decision and turn.ended —
 * 8 events a turn, padded with notices to exactly EVENTS events.
 */
function generatedExport(id: string, directory: string) {
  const start = Date.UTC(2026, 0, 1);
  const events: Array<{ seq: number; type: string; data: unknown; at: string }> = [];
  const add = (type: string, data: unknown) =>
    events.push({ seq: events.length + 1, type, data, at: new Date(start + events.length * 1000).toISOString() });
  add("session.created", { title: "bench", directory, parent: null });
  for (let turn = 1; events.length + 8 <= EVENTS; turn++) {
    const call = `call_${turn}`;
    add("message.user", { text: `step ${turn}: read file ${turn % 50}` });
    add("message.assistant", {
      text: "",
      toolCalls: [{ id: call, name: "read", input: { path: `src/file-${turn % 50}.ts` } }],
      finish: "tool-calls",
      model: "scripted/bench",
      step: 1,
      status: "complete",
    });
    add("call.started", { id: call, name: "read", input: { path: `src/file-${turn % 50}.ts` }, step: 1 });
    add("call.finished", {
      id: call,
      name: "read",
      output: `1\texport const n = ${turn};`,
      isError: false,
      summary: "read 1 line",
    });
    add("message.assistant", {
      text: `Read it (${turn}).`,
      toolCalls: [],
      finish: "stop",
      model: "scripted/bench",
      step: 2,
      status: "complete",
    });
    add("model.usage", { model: "scripted/bench", input: 120, output: 12, cacheRead: 0, cacheWrite: 0 });
    add("decision", {
      seat: "turn.done",
      holder: "model",
      answer: "done",
      reasons: [{ rule: "the model replied without tool calls", decisive: true }],
      subject: { step: 2 },
    });
    add("turn.ended", { status: "done", steps: 2 });
  }
  while (events.length < EVENTS) add("message.notice", { text: `note ${events.length}` });
  const at = (events.at(-1) as { at: string }).at;
  return {
    format: "bosun.session/1",
    session: { id, title: "bench", directory, parent: null, created: events[0]?.at, updated: at },
    events,
  };
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
  console.log(`bosun fault benchmark: a ${EVENTS.toLocaleString("en-US")}-event session, node ${process.version}`);
  console.log("| case | figure | goal |");
  console.log("|---|---|---|");
  for (const row of rows) console.log(`| ${row.case} | ${row.figure} | ${row.goal ?? "—"} |`);
}
