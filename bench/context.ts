/**
 * What building the model's context costs, measured in-process (no model, no store):
 *   (a) re-reading the environment before a step (date, folders, git branch and dirty state);
 *   (b) loading the instruction files at the start of a run (global, root → cwd, a config glob);
 *   (c) discovering skills (20 skills under one root) and rendering the system prompt;
 *   (d) the estimate, prune and image passes over a 200-message conversation.
 *
 *   npx tsx bench/context.ts
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { ModelMessage } from "ai";
import { estimateMessages } from "../src/compaction/estimate.js";
import { pruneToolOutputs } from "../src/compaction/prune.js";
import { DEFAULTS } from "../src/config/defaults.js";
import { readEnvironment } from "../src/context/environment.js";
import { fitImages } from "../src/context/images.js";
import { loadInstructions, renderInstructions } from "../src/context/instructions.js";
import { discoverSkills, renderSkills } from "../src/context/skills.js";
import { systemPrompt } from "../src/context/system-prompt.js";
import { readCheck } from "../src/permission/gate/read-check.js";
import { buildAuthority } from "../src/permission/rules/layers.js";
import { configFrom } from "../test/support/config.js";

const root = mkdtempSync(join(tmpdir(), "bosun-bench-context-"));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const ws = join(root, "ws");
const sub = join(ws, "packages", "app");
mkdirSync(sub, { recursive: true });
mkdirSync(join(ws, "docs"));
for (let i = 0; i < 200; i++) writeFileSync(join(ws, `file${i}.txt`), `${i}\n`);
writeFileSync(join(ws, "AGENTS.md"), "Root rules.\n".repeat(40));
writeFileSync(join(sub, "AGENTS.md"), "App rules.\n".repeat(20));
writeFileSync(join(ws, "docs", "style.md"), "Style.\n".repeat(20));
for (let i = 0; i < 20; i++) {
  mkdirSync(join(ws, ".bosun", "skills", `skill${i}`), { recursive: true });
  writeFileSync(
    join(ws, ".bosun", "skills", `skill${i}`, "SKILL.md"),
    `---\nname: skill${i}\ndescription: Does thing ${i}\n---\nBody ${i}\n`,
  );
}
spawnSync("git", ["init", "-q", ws]);
spawnSync("git", ["-C", ws, "add", "-A"]);
spawnSync("git", ["-C", ws, "-c", "user.name=b", "-c", "user.email=b@e", "commit", "-qm", "bench"]);

// Every file passes the run's read check (the built-in rules here), as in a real run.
const check = readCheck({
  authority: buildAuthority({
    config: configFrom(),
    agent: { name: "build" },
    mode: { name: "approve", holder: "code" },
    cwd: ws,
    workspace: ws,
  }),
  policy: { rules: [], files: [] },
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function time(runs: number, fn: () => unknown): Promise<number> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const conversation: ModelMessage[] = [];
for (let i = 0; i < 50; i++) {
  conversation.push({ role: "user", content: `message ${i}` });
  conversation.push({
    role: "assistant",
    content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "read", input: { path: `file${i}.txt` } }],
  });
  conversation.push({
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: `c${i}`, toolName: "read", output: { type: "text", value: "x".repeat(4000) } },
    ],
  });
  conversation.push({ role: "assistant", content: [{ type: "text", text: "ok" }] });
}

const env = await time(30, () => readEnvironment(sub));
const instructions = await time(30, () =>
  loadInstructions({
    globalDir: join(root, "home"),
    repoRoot: ws,
    cwd: sub,
    claudeMd: true,
    extra: [{ value: "docs/*.md", baseDir: ws, source: "bench", owner: "repository" }],
    cacheDir: join(root, "cache"),
    fetchTimeoutMs: DEFAULTS.instructions.fetch_timeout_ms,
    check,
  }),
);
const skills = await time(30, () => {
  const set = discoverSkills({ workspace: ws, globalDir: join(root, "home"), home: join(root, "home"), check });
  return systemPrompt({
    tools: ["read", "shell"],
    skills: renderSkills(set.skills),
    instructions: renderInstructions([]),
  });
});
const passes = await time(30, () => {
  const { messages } = pruneToolOutputs(conversation, 40_000);
  fitImages(messages, { accepts: false });
  return estimateMessages(messages);
});

const ms = (value: number) => `${value.toFixed(2)} ms`;
console.log("| measure | median |");
console.log("|---|---|");
console.log(`| environment re-read before a step (git branch + status, 200 files) | ${ms(env)} |`);
console.log(`| instruction files at run start (3 AGENTS.md levels + a config glob) | ${ms(instructions)} |`);
console.log(`| skills discovery (20 skills) + system prompt | ${ms(skills)} |`);
console.log(`| prune + images + estimate over 200 messages (200 KB of tool output) | ${ms(passes)} |`);
