/**
 * Time from launching `bosun` (no arguments: the interactive session) in a real terminal (tmux)
 * to a ready prompt on screen, and to the session open behind it (the status line names the
 * model), against `node -e 0` in the same terminal; median of 10 runs, with
 * a scripted model configured (no request is made before the first message).
 *
 *   npx tsx bench/tui.ts
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "bosun-bench-tui-"));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const project = join(root, "project");
const home = join(root, "home");
mkdirSync(project);
mkdirSync(home);
spawnSync("git", ["init", "-q", project]);
writeFileSync(
  join(home, "bosun.json"),
  JSON.stringify({
    model: "scripted/bench",
    provider: { scripted: { type: "openai-compatible", baseURL: "http://127.0.0.1:9/v1" } },
  }),
);

const tmux = (...args: string[]) => spawnSync("tmux", args, { encoding: "utf8" }).stdout;

/** Launches `argv` in a fresh tmux session and waits until the screen matches `ready`. */
async function launch(argv: string[], ready: RegExp): Promise<number> {
  const name = `bosun-bench-${Math.random().toString(36).slice(2)}`;
  const start = performance.now();
  tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", "-c", project, "-e", `BOSUN_HOME=${home}`, ...argv);
  tmux("set-option", "-t", name, "remain-on-exit", "on");
  try {
    for (;;) {
      if (ready.test(tmux("capture-pane", "-p", "-t", name))) return performance.now() - start;
      if (performance.now() - start > 20_000) throw new Error(`never ready: ${tmux("capture-pane", "-p", "-t", name)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    tmux("kill-session", "-t", name);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const node: number[] = [];
const bosun: number[] = [];
const opened: number[] = [];
for (let i = 0; i < 10; i++) {
  node.push(await launch([process.execPath, "-e", "console.log('ready'); setTimeout(() => {}, 60000)"], /ready/));
  bosun.push(await launch([process.execPath, bin], /Ask bosun/));
  // The session open behind the prompt: the status line names the model instead of "starting".
  opened.push(await launch([process.execPath, bin], /scripted\/bench · build · approve/));
}
const base = median(node);
console.log("| case | median | vs `node -e` |");
console.log("|---|---|---|");
console.log(`| \`node -e\` printing a line | ${base.toFixed(0)} ms | 1.00x |`);
console.log(
  `| \`bosun\`: launch → ready prompt | ${median(bosun).toFixed(0)} ms | ${(median(bosun) / base).toFixed(2)}x |`,
);
console.log(
  `| \`bosun\`: launch → session open (status line names the model) | ${median(opened).toFixed(0)} ms | ${(median(opened) / base).toFixed(2)}x |`,
);
