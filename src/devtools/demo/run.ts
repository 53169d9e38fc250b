import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BosunError } from "../../errors.js";
import { type ScriptedServer, startScriptedServer } from "../model-server/index.js";
import { DEMO_FILES, DEMO_TASK } from "./project.js";
import { demoScript } from "./script.js";

/**
 * `bosun demo`: the real `bosun run` fixing a real bug in a throwaway project, with a scripted
 * model standing in for the real one. Everything but the model is bosun itself: the CLI is spawned
 * as a separate process, talks HTTP to the scripted server, runs real tools and writes a real
 * session ledger (under a throwaway BOSUN_HOME), which `bosun why` then prints.
 */

export interface DemoOptions {
  /** Keep the temporary project and BOSUN_HOME, and say where they are. */
  keep: boolean;
  /** The compiled CLI entry (dist/cli/main.js) to run `bosun run` and `bosun why` with. */
  bin: string;
}

const MODEL = "demo";

export async function runDemo(options: DemoOptions): Promise<void> {
  const say = (text = "") => process.stdout.write(`${text}\n`);
  say("bosun demo — the model here is SCRIPTED: a local fake model server following a fixed script");
  say("bundled with bosun (src/devtools/demo/script.ts). No API key is used and nothing leaves this machine.");
  say("Everything else is the real bosun: `bosun run` in its own process, its tools, permissions and ledger.");
  say();
  if (!existsSync(options.bin)) throw new BosunError(`cannot run the demo: ${options.bin} is missing`, 1);

  const root = mkdtempSync(join(tmpdir(), "bosun-demo-"));
  const project = join(root, "project");
  const home = join(root, "home");
  let server: ScriptedServer | undefined;
  let interrupted: NodeJS.Signals | undefined;
  let child: ReturnType<typeof spawn> | undefined;
  // Ctrl-C reaches `bosun run` too (same process group); wait for it, then clean up.
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = signal;
    if (signal === "SIGTERM") child?.kill("SIGTERM");
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  let failed = true;
  let session: string | undefined;
  try {
    mkdirSync(home, { recursive: true });
    writeProject(project);
    server = await startScriptedServer(demoScript());
    // The demo's own BOSUN_HOME holds the provider: a repository's bosun.json that points bosun at
    // another server needs trust, and the project is a stand-in for anyone's repository.
    writeFileSync(join(home, "bosun.json"), demoConfig(server.baseURL));
    const git = initGit(project);
    say(`Project: ${project}`);
    say(`  a copy of a tiny JavaScript package${git ? " (a fresh git repository)" : ""} whose test fails;`);
    say(`  BOSUN_HOME=${home}, so your own sessions and config are untouched.`);
    say(`  ${join(home, "bosun.json")} points bosun at the scripted model server, ${server.baseURL},`);
    say(`  as model scripted/${MODEL}.`);
    say("  --auto approves the edit and shell calls, which ask by default (bosun why shows each approval).");
    say();

    const env = childEnv(home);
    const cli = (args: string[], stdio: "inherit" | "pipe") => {
      const started = spawnCli(options.bin, args, { cwd: project, env, stdio });
      child = started.child;
      return started.done;
    };

    say(`$ bosun run --auto "${DEMO_TASK}"`);
    const run = await cli(["run", "--auto", DEMO_TASK], "inherit");
    say();
    const problems: string[] = [];
    if (interrupted) throw new BosunError(`demo interrupted (${interrupted})`, interrupted === "SIGINT" ? 130 : 143);
    if (run.code !== 0) problems.push(`bosun run exited with code ${run.code ?? run.signal}`);
    for (const failure of server.failures) problems.push(`scripted model server: ${failure}`);
    const answered = new Set(server.requests.map((request) => request.rule));
    const rules = demoScript().rules.length;
    if (problems.length === 0 && answered.size !== rules) {
      problems.push(`the run ended after ${answered.size} of the script's ${rules} steps`);
    }
    if (problems.length > 0) throw demoFailure(problems);

    say("$ node test.js   # checked by the demo itself, outside bosun");
    const check = spawnSync(process.execPath, ["test.js"], { cwd: project, encoding: "utf8" });
    process.stdout.write(check.stdout);
    if (check.status !== 0) {
      throw demoFailure([`node test.js still fails (exit ${check.status}): ${check.stderr}`]);
    }
    say();

    const listed = await cli(["sessions", "--json"], "pipe");
    session = sessionId(listed.stdout);
    if (listed.code !== 0 || !session) {
      throw demoFailure([`bosun sessions found no session: ${listed.stderr || listed.stdout}`]);
    }
    say(`$ bosun why ${session}   # every decision of that run, by turn and step: seat, holder, answer, why`);
    const why = await cli(["why", session], "inherit");
    if (why.code !== 0) throw demoFailure([`bosun why exited with code ${why.code}`]);
    say();

    say("That was a scripted model. To run bosun with a real one:");
    say("  export ANTHROPIC_API_KEY=...   (or OPENAI_API_KEY, GEMINI_API_KEY),");
    say('  or configure a provider in bosun.json, e.g. a local server such as Ollama ("type": "openai-compatible");');
    say('  `bosun models` shows what bosun found; then: bosun run "your task"');
    failed = false;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await server?.close();
    if (options.keep) {
      say();
      say(`Kept (--keep): the project ${project} and BOSUN_HOME ${home}. To look again:`);
      say(`  cd ${project} && BOSUN_HOME=${home} bosun sessions show ${session ?? "<session>"}`);
      say(`Remove them with: rm -rf ${root}`);
    } else {
      rmSync(root, { recursive: true, force: true });
      if (failed)
        process.stderr.write("bosun: the demo's temporary folders are removed; run with --keep to inspect them\n");
    }
  }
}

function writeProject(project: string): void {
  for (const [path, content] of Object.entries(DEMO_FILES)) {
    const full = join(project, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** bosun.json for the demo's BOSUN_HOME (JSONC, so it can say what it is). */
function demoConfig(baseURL: string): string {
  const config = {
    model: `scripted/${MODEL}`,
    // The script never fails on purpose: a request it cannot answer is a bug, reported at once.
    retry: { max_attempts: 1 },
    provider: {
      scripted: {
        type: "openai-compatible",
        baseURL,
        models: { [MODEL]: { context: 32000, output: 4000, tools: true, images: false } },
      },
    },
  };
  return `// Written by bosun demo: "scripted" is a local fake model server following a fixed script.\n${JSON.stringify(config, null, 2)}\n`;
}

/** Makes the project a git repository with one commit; false when git is not available. */
function initGit(project: string): boolean {
  const git = (...args: string[]) =>
    spawnSync(
      "git",
      ["-c", "user.name=bosun demo", "-c", "user.email=demo@localhost", "-c", "commit.gpgsign=false", ...args],
      { cwd: project, stdio: "ignore" },
    ).status === 0;
  return git("init", "-q") && git("add", "-A") && git("commit", "-q", "-m", "stats-demo: a failing test");
}

/**
 * The child's environment: the person's, minus anything that could change the demo's outcome or
 * reach a real provider — bosun's own variables (BOSUN_MODEL, BOSUN_CONFIG, ...) and API keys.
 */
function childEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("BOSUN_") || key.endsWith("_API_KEY")) continue;
    env[key] = value;
  }
  env.BOSUN_HOME = home;
  return env;
}

interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function spawnCli(
  bin: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdio: "inherit" | "pipe" },
): { child: ReturnType<typeof spawn>; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", options.stdio, options.stdio],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

function sessionId(json: string): string | undefined {
  try {
    const sessions = JSON.parse(json) as Array<{ id?: unknown }>;
    const id = sessions[0]?.id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

function demoFailure(problems: string[]): BosunError {
  return new BosunError(
    `the demo failed — bosun did not do what the script expects:\n${problems.map((p) => `  ${p}`).join("\n")}`,
    1,
  );
}
