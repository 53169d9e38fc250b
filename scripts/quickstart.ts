/**
 * The README's quick start, followed verbatim in a real terminal, as a new user would: the first
 * `sh` block of "Set up and run" is typed line by line into an interactive bash in tmux, with a
 * fresh HOME and npm prefix. Only what the README leaves to the reader is supplied: the clone
 * source (`<this repository>` is this checkout), the project (`~/your-project`, a small git
 * repository whose test fails), and where the model answers (the global config points the
 * Anthropic provider at the scripted model server — the stand-in for api.anthropic.com — so the
 * key the README exports is what bosun uses). The person's part is played too: each approval
 * prompt of `bosun run` is answered "Allow once", and the interactive session is left with /exit.
 *
 * Run by CI after the tests (`.ci/run`): `npx tsx scripts/quickstart.ts`. Exit 0 when every line
 * exited 0, the project's test passes afterwards and the model's script was followed to its end.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { DEMO_BUG, DEMO_FILES, DEMO_TASK } from "../src/devtools/demo/project.js";
import { demoScript } from "../src/devtools/demo/script.js";
import { type Script, startScriptedServer } from "../src/devtools/model-server/index.js";

const checkout = resolve(dirname(new URL(import.meta.url).pathname), "..");
/** What the README has the person ask in their own project. */
const TASK = "fix the failing test";
/** The model bosun picks when only ANTHROPIC_API_KEY is set (src/model/catalog.ts). */
const DEFAULT_MODEL = "claude-sonnet-4-5";
/** Per line: `npm ci` compiles better-sqlite3, the slowest step by far. */
const LINE_TIMEOUT_MS = 15 * 60_000;

/** The README's set-up lines, exactly as written (comments included: bash ignores them). */
export function quickStartLines(readme: string): string[] {
  const section = readme.split(/^## Set up and run$/m)[1];
  const block = section?.match(/```sh\n([\s\S]*?)```/)?.[1];
  if (!block) throw new Error('README.md: no ```sh block under "## Set up and run"');
  return block.split("\n").filter((line) => line.trim() !== "");
}

/**
 * What `<this repository>` is: this checkout when it is a git repository; otherwise (a source
 * tarball) a repository made from its files, so the clone line still runs as written.
 */
function repository(root: string): string {
  if (spawnSync("git", ["-C", checkout, "rev-parse", "--git-dir"]).status === 0) return checkout;
  const copy = join(root, "source");
  cpSync(checkout, copy, { recursive: true, filter: (path) => !/\/(node_modules|dist)$/.test(path) });
  const git = (...args: string[]) =>
    spawnSync("git", ["-c", "user.name=ci", "-c", "user.email=ci@example.com", ...args], { cwd: copy });
  git("init", "-q");
  git("add", ".");
  git("commit", "-q", "-m", "source");
  return copy;
}

/** The placeholders the README leaves to the reader, each of which must still be there. */
function fillIn(lines: string[], source: string): string[] {
  const filled = lines.map((line) => line.replace("<this repository>", source));
  if (filled.join("\n") === lines.join("\n"))
    throw new Error("README.md: the clone line no longer says <this repository>");
  for (const expected of ["npm link", "cd ~/your-project", "export ANTHROPIC_API_KEY=", `bosun run "${TASK}"`]) {
    if (!filled.some((line) => line.includes(expected)))
      throw new Error(`README.md: the quick start has no "${expected}"`);
  }
  return filled;
}

/** The demo's script, asked for by the README's words in the user's project and model. */
function script(): Script {
  const demo = demoScript();
  const rules = demo.rules.map((rule) =>
    rule.match?.lastMessage === DEMO_TASK ? { ...rule, match: { ...rule.match, lastMessage: TASK } } : rule,
  );
  if (rules.every((rule) => rule.match?.lastMessage !== TASK)) throw new Error("the demo script's first rule moved");
  return { ...demo, models: [DEFAULT_MODEL], rules };
}

function tmux(socket: string, ...args: string[]): string {
  const done = spawnSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  if (done.status !== 0) throw new Error(`tmux ${args.join(" ")}: ${done.stderr}`);
  return done.stdout;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), "bosun-quickstart-"));
  const lines = fillIn(quickStartLines(readFileSync(join(checkout, "README.md"), "utf8")), repository(root));
  const home = join(root, "home");
  const prefix = join(root, "npm-global");
  const project = join(home, "your-project");
  const rcFile = join(root, "exit-codes");
  const socket = `bosun-quickstart-${randomBytes(4).toString("hex")}`;
  const server = await startScriptedServer(script());
  const problems: string[] = [];
  let screen = "";
  try {
    mkdirSync(prefix, { recursive: true });
    for (const [path, content] of Object.entries(DEMO_FILES)) {
      mkdirSync(dirname(join(project, path)), { recursive: true });
      writeFileSync(join(project, path), content);
    }
    const git = (...args: string[]) =>
      spawnSync("git", ["-c", "user.name=you", "-c", "user.email=you@example.com", ...args], { cwd: project });
    git("init", "-q");
    git("add", ".");
    git("commit", "-q", "-m", "the project");
    const config = join(home, ".config", "bosun", "bosun.json");
    mkdirSync(dirname(config), { recursive: true });
    writeFileSync(config, `${JSON.stringify({ provider: { anthropic: { baseURL: server.baseURL } } }, null, 2)}\n`);
    writeFileSync(rcFile, "");

    // A fresh user: their own HOME, an npm prefix of their own for `npm link`, nothing of bosun
    // on the PATH, no BOSUN_HOME or XDG folders set. The machine's npm set-up is kept (its user
    // config — registry, headers for node-gyp — and its cache), as it would be for that person.
    const npmSetting = (key: string) => spawnSync("npm", ["config", "get", key], { encoding: "utf8" }).stdout.trim();
    const cache = npmSetting("cache");
    const userconfig = npmSetting("userconfig");
    const env: Record<string, string> = {
      HOME: home,
      PATH: `${join(prefix, "bin")}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      TERM: "xterm-256color",
      LANG: process.env.LANG ?? "C.UTF-8",
      NPM_CONFIG_PREFIX: prefix,
      ...(cache ? { NPM_CONFIG_CACHE: cache } : {}),
      ...(userconfig && existsSync(userconfig) ? { NPM_CONFIG_USERCONFIG: userconfig } : {}),
      PS1: "quickstart$ ",
      PROMPT_COMMAND: `echo $? >> '${rcFile}'`,
    };
    // bash without the machine's rc files, in exactly that environment; the whole session kept.
    const shell = [
      "env",
      "-i",
      ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
      "bash",
      "--noprofile",
      "--norc",
      "-i",
    ];
    tmux(
      socket,
      "-f",
      "/dev/null",
      "start-server",
      ";",
      "set-option",
      "-g",
      "history-limit",
      "100000",
      ";",
      "new-session",
      "-d",
      "-s",
      "q",
      "-x",
      "160",
      "-y",
      "50",
      "-c",
      root,
      ...shell,
    );
    const capture = () => tmux(socket, "capture-pane", "-p", "-J", "-t", "q", "-S", "-");
    const codes = () => readFileSync(rcFile, "utf8").split("\n").filter(Boolean).map(Number);
    const waitCodes = async (count: number, timeoutMs: number, onPoll?: () => void) => {
      const until = Date.now() + timeoutMs;
      while (codes().length < count) {
        if (Date.now() > until) throw new Error(`timed out after ${timeoutMs / 1000} s`);
        onPoll?.();
        await sleep(250);
      }
      return codes()[count - 1];
    };
    await waitCodes(1, 30_000);

    for (const line of lines) {
      const before = codes().length;
      process.stdout.write(`quickstart$ ${line}\n`);
      const command = line.replace(/\s+#.*$/, "").trim();
      const shown = capture().split(DEFAULT_MODEL).length;
      tmux(socket, "send-keys", "-t", "q", "-l", line);
      tmux(socket, "send-keys", "-t", "q", "Enter");
      let answered = 0;
      if (command === "bosun") {
        // The interactive session opens on this project's model; leave it as a person would.
        const until = Date.now() + 60_000;
        while (capture().split(DEFAULT_MODEL).length <= shown) {
          if (Date.now() > until) throw new Error("the interactive session never showed its model");
          await sleep(250);
        }
        tmux(socket, "send-keys", "-t", "q", "-l", "/exit");
        tmux(socket, "send-keys", "-t", "q", "Enter");
      }
      const code = await waitCodes(before + 1, LINE_TIMEOUT_MS, () => {
        // `bosun run` asks before each edit and command at a terminal: the person allows it once.
        const prompts = capture().split("Allow this call?").length - 1;
        if (prompts > answered && /● Allow once/.test(capture().split("Allow this call?").at(-1) ?? "")) {
          answered++;
          tmux(socket, "send-keys", "-t", "q", "Enter");
        }
      });
      if (code !== 0) {
        problems.push(`"${line}" exited ${code}`);
        break;
      }
    }
    screen = capture();
    const check = spawnSync(process.execPath, ["test.js"], { cwd: project, encoding: "utf8" });
    if (check.status !== 0) problems.push(`the project's test still fails: ${check.stdout}${check.stderr}`);
    if (!readFileSync(join(project, DEMO_BUG.file), "utf8").includes(DEMO_BUG.right))
      problems.push("the fix is not in the project");
    for (const failure of server.failures) problems.push(`scripted model server: ${failure}`);
    const followed = new Set(server.requests.flatMap((request) => (request.rule === undefined ? [] : [request.rule])))
      .size;
    if (followed !== script().rules.length) problems.push(`the model's script stopped after ${followed} step(s)`);
    if (!existsSync(join(home, ".local", "share", "bosun", "bosun.db"))) {
      problems.push("no session database under ~/.local/share/bosun");
    }
  } catch (error) {
    problems.push((error as Error).message);
    try {
      screen = tmux(socket, "capture-pane", "-p", "-J", "-t", "q", "-S", "-");
    } catch {}
  } finally {
    spawnSync("tmux", ["-L", socket, "kill-server"]);
    await server.close();
  }
  if (problems.length > 0) {
    process.stdout.write(`\n--- the terminal ---\n${screen.split("\n").slice(-150).join("\n")}\n---\n`);
    for (const problem of problems) process.stderr.write(`quickstart: ${problem}\n`);
    process.stderr.write(`quickstart: kept ${root} to look at\n`);
    return 1;
  }
  rmSync(root, { recursive: true, force: true });
  process.stdout.write(`quickstart: every line of the README's set-up ran (${lines.length} lines), the test passes\n`);
  return 0;
}

process.exitCode = await main();
