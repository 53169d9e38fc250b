/**
 * What the authority layer costs a call, measured in-process (no model, no store):
 *   (a) the shell analysis of one command line (tree-sitter parse, tables, path resolution),
 *       over a mix of everyday lines, after the parser has loaded;
 *   (b) judging a described call against a run's rule layers (authorize: rules, mode, read-only);
 *   (c) running `true` in bash plainly, sealed and masked with bubblewrap (what confinement adds),
 *       and finding the workspace's protected files the mask hides (paid by every shell call).
 *
 *   npx tsx bench/authority.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { decideAgent } from "../src/agents/select.js";
import { loadConfig } from "../src/config/load.js";
import { authorize } from "../src/permission/gate/authorize.js";
import { unreadableFiles } from "../src/permission/gate/confine.js";
import { sandboxProblem } from "../src/permission/gate/sandbox.js";
import { shellRequests } from "../src/permission/rules/call-requests.js";
import { buildAuthority } from "../src/permission/rules/layers.js";
import { spawnShell } from "../src/tools/process.js";

const root = mkdtempSync(join(tmpdir(), "bosun-bench-authority-"));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const ws = join(root, "ws");
mkdirSync(join(ws, ".git"), { recursive: true });
mkdirSync(join(ws, "src"));
writeFileSync(join(ws, "src", "a.ts"), "x\n");

const LINES = [
  "git status",
  "ls -la src",
  "npm test",
  "git diff HEAD~1 -- src/a.ts | head -50",
  "cd src && grep -rn TODO . | wc -l",
  "find . -name '*.ts' -not -path './node_modules/*' | xargs wc -l",
  "cat src/a.ts > /tmp/copy && rm -f /tmp/copy",
  'for f in src/*.ts; do echo "$f"; done',
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function timeEach(runs: number, body: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await body();
    times.push(performance.now() - start);
  }
  return median(times);
}

const where = { cwd: ws, workspace: ws };
await shellRequests("true", where); // loads the parser
const perLine = await timeEach(50, async () => {
  for (const line of LINES) await shellRequests(line, where);
});

const config = loadConfig({ cwd: ws, env: { BOSUN_HOME: join(root, "home") } });
const authority = buildAuthority({
  config,
  agent: decideAgent(undefined, config).agent,
  mode: { name: "approve", holder: "code" },
  cwd: ws,
  workspace: ws,
});
const described = await shellRequests(LINES[4] as string, where);
const judge = await timeEach(2000, () => authorize(described, authority));

const run = async (kind?: "sealed" | "masked") =>
  timeEach(20, async () => {
    const proc = spawnShell("true", { cwd: ws, ...(kind ? { confine: { kind, visible: [ws] } } : {}) });
    await proc.finished;
  });
const plain = await run();
const problem = await sandboxProblem();
const confined = problem ? undefined : await run("sealed");
const masked = problem ? undefined : await run("masked");
// What choosing the mask costs per shell call: finding the files the read rules protect.
const gateDeps = { authority, policy: { rules: [], files: [] }, auto: false, sandbox: "on" as const, visible: [ws] };
const protectedSearch = await timeEach(50, () => unreadableFiles(gateDeps));

console.log(`authority layer, medians (node ${process.version})`);
console.log("| measure | median |");
console.log("|---|---|");
console.log(
  `| shell analysis of one command line (${LINES.length} everyday lines) | ${(perLine / LINES.length).toFixed(2)} ms |`,
);
console.log(
  `| authorize one described call (${described.requests.length} requests, built-in layers) | ${(judge * 1000).toFixed(0)} µs |`,
);
console.log(`| \`true\` in bash, plain | ${plain.toFixed(1)} ms |`);
console.log(
  confined === undefined
    ? `| \`true\` in bash, confined | (no sandbox here: ${problem}) |`
    : `| \`true\` in bash, sealed (bubblewrap) | ${confined.toFixed(1)} ms |`,
);
if (masked !== undefined) console.log(`| \`true\` in bash, masked (bubblewrap) | ${masked.toFixed(1)} ms |`);
console.log(`| finding the protected files to mask (this workspace) | ${protectedSearch.toFixed(2)} ms |`);
