import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { expectDecision } from "../support/ledger.js";
import { type Scenario, startScenario } from "../support/scenario.js";
import { startTmux } from "../support/tmux.js";
import { BOSUN_BIN, spawnProcess } from "../support/workspace.js";

/**
 * What people type out of habit from other agents: `bosun "task"`, `-p`, `-c`/`-r` at the top
 * level, `bosun help`, a pipe together with a message. The real binary, a scripted model, and
 * (for the interactive session) a real terminal in tmux.
 */

const ok = { reply: { text: "Looked at it." } };
const TITLE = "title of a coding session";

/** The user messages of the conversation's requests (a title's request left out). */
function userMessages(s: Scenario): string[] {
  return s.server.requests
    .filter((r) => !(r.normalized?.system ?? "").includes(TITLE))
    .map((r) => r.normalized?.messages.filter((m) => m.role === "user").at(-1)?.text ?? "");
}

async function withScenario(rules: Parameters<typeof startScenario>[0]["rules"], body: (s: Scenario) => Promise<void>) {
  const s = await startScenario({ rules });
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

describe("habits: bosun without a terminal", () => {
  it('bosun "task" with no terminal is bosun run: the task is the message, the run its usual self', async () => {
    await withScenario([ok], async (s) => {
      const result = await s.run(["fix the failing test"]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /Looked at it\./);
      assert.match(result.stderr, /\[done · 1 step\(s\) · session /);
      assert.deepEqual(userMessages(s), ["fix the failing test"]);
      // The run's flags work before the message, as for bosun run.
      const json = await s.run(["--format", "json", "-c", "and again"]);
      assert.equal(json.code, 0, json.stderr);
      const done = s.events(json).at(-1);
      assert.equal(done?.type, "done");
      assert.equal(done?.session, s.latest().id, "-c at the top level continues the latest session");
    });
  });

  it("bosun alone with no terminal says the interactive session needs one and points at bosun run (exit 2)", async () => {
    await withScenario([ok], async (s) => {
      const result = await s.run([]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /the interactive session needs a terminal/);
      assert.match(result.stderr, /bosun run "fix the failing test"/);
      assert.doesNotMatch(result.stdout, /Usage:/, "no wall of help");
      assert.equal(s.server.requests.length, 0);
    });
  });

  it("-p / --print is bosun run, at a terminal or not; -r <session> resumes; -r alone needs a terminal", async () => {
    await withScenario([ok], async (s) => {
      const first = await s.run(["-p", "look around"]);
      assert.equal(first.code, 0, first.stderr);
      const id = s.latest().id;
      const second = await s.run(["--print", "--format", "json", "-r", id.slice(0, 8), "look again"]);
      assert.equal(second.code, 0, second.stderr);
      assert.equal(s.events(second).at(-1)?.session, id);
      assert.deepEqual(userMessages(s), ["look around", "look again"]);
      const pick = await s.run(["-p", "-r"]);
      assert.equal(pick.code, 2);
      assert.match(pick.stderr, /-r without a session picks one in the interactive session/);
    });
  });

  it("a mistyped command is said to be one, never sent to the model", async () => {
    await withScenario([ok], async (s) => {
      const typo = await s.run(["sesions"]);
      assert.equal(typo.code, 2);
      assert.match(typo.stderr, /unknown command 'sesions' \(did you mean sessions\?\)/);
      const words = await s.run(["model", "the", "data"]);
      assert.equal(words.code, 2);
      assert.match(words.stderr, /quote it: bosun "model the data"/);
      assert.equal(s.server.requests.length, 0);
    });
  });

  it("another agent's subcommand (resume, continue, exec) points at bosun's flag, never sent to the model", async () => {
    await withScenario([ok], async (s) => {
      const cases: Array<[string[], RegExp]> = [
        [["resume"], /bosun has no 'resume' command: bosun resumes with -r: bosun -r picks a session/],
        [["resume", "01ABC"], /bosun -r <session> names one/],
        [["continue"], /bosun has no 'continue' command: bosun -c continues the latest session/],
        [
          ["exec", "fix", "the", "test"],
          /bosun has no 'exec' command: bosun -p "…" \(or bosun run "…"\)[^\n]*quote it: bosun "exec fix the test"/,
        ],
      ];
      for (const [args, said] of cases) {
        const result = await s.run(args);
        assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
        assert.match(result.stderr, said);
      }
      assert.equal(s.server.requests.length, 0, "no model was asked");
      const listed = await s.run(["sessions", "--json"]);
      assert.deepEqual(JSON.parse(listed.stdout), [], "no session was made");
      // Quoted, or a longer sentence, it is a task like any other.
      const quoted = await s.run(["resume the work on the parser"]);
      assert.equal(quoted.code, 0, quoted.stderr);
      const sentence = await s.run(["continue", "the", "refactor"]);
      assert.equal(sentence.code, 0, sentence.stderr);
    });
  });

  it("a run that ends on a limit says so, never done", async () => {
    const list = { reply: { toolCalls: [{ id: "l1", name: "list", arguments: {} }] } };
    await withScenario([{ match: { request: 1 }, ...list }, ok], async (s) => {
      const result = await s.run(["run", "--max-steps", "1", "look around"]);
      assert.equal(result.code, 3, result.stderr);
      assert.match(result.stderr, /\[limit · 1 step\(s\) · session /);
      assert.doesNotMatch(result.stderr, /\[done/);
    });
  });
});

describe("habits: bosun help", () => {
  it("help lists the commands; help <command> is that command's help", async () => {
    await withScenario([ok], async (s) => {
      const all = await s.run(["help"]);
      assert.equal(all.code, 0, all.stderr);
      assert.match(all.stdout, /^Usage: bosun /m);
      for (const command of ["run", "sessions", "why"]) assert.match(all.stdout, new RegExp(`^\\s+${command}\\b`, "m"));
      const run = await s.run(["help", "run"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Usage: bosun run /m);
      assert.match(run.stdout, /--max-steps/);
      const unknown = await s.run(["help", "fly"]);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /unknown command 'fly' \(bosun help lists them\)/);
      assert.doesNotMatch(unknown.stderr, /Usage:/, "one line, no wall of help");
      const typo = await s.run(["help", "sesions"]);
      assert.equal(typo.code, 2);
      assert.equal(typo.stderr, "bosun: unknown command 'sesions' (did you mean sessions? bosun help lists them)\n");
      assert.equal(s.server.requests.length, 0);
    });
  });
});

describe("habits: piped stdin with a message", () => {
  it("joins them: the message first, then the piped text as a block labelled stdin", async () => {
    await withScenario([ok], async (s) => {
      const piped = "diff --git a/x b/x\n-old\n+new\n";
      const run = await s.run(["run", "review this"], { input: piped });
      assert.equal(run.code, 0, run.stderr);
      const top = await s.run(["review that"], { input: "```js\nlet x;\n```\n" });
      assert.equal(top.code, 0, top.stderr);
      const alone = await s.run(["run"], { input: "  just the pipe\n" });
      assert.equal(alone.code, 0, alone.stderr);
      const empty = await s.run(["run", "nothing piped"], { input: " \n\n" });
      assert.equal(empty.code, 0, empty.stderr);
      assert.deepEqual(userMessages(s), [
        "review this\n\n```stdin\ndiff --git a/x b/x\n-old\n+new\n```",
        // A fence inside the piped text: the block's own fence is longer, so it stays one block.
        "review that\n\n````stdin\n```js\nlet x;\n```\n````",
        "just the pipe",
        "nothing piped",
      ]);
    });
  });
});

describe("habits: a stdin that is open but silent", () => {
  it("a program's open stdin is waited on only so long; a late first byte is still joined", async () => {
    await withScenario([ok], async (s) => {
      const start = (message: string) =>
        spawnProcess(process.execPath, [BOSUN_BIN, "run", message], {
          cwd: s.ws.dir,
          env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
        });
      // Never written, never closed: the run goes ahead without it, and says so.
      const silent = start("no pipe here");
      const quiet = await silent.result;
      silent.child.stdin?.destroy();
      assert.equal(quiet.code, 0, quiet.stderr);
      assert.match(quiet.stderr, /stdin is open but sent nothing in 2 s: running without it/);
      // Written after a moment, then closed: joined as any pipe is.
      const late = start("read the log");
      setTimeout(() => late.child.stdin?.end("line one\n"), 500);
      const joined = await late.result;
      assert.equal(joined.code, 0, joined.stderr);
      assert.doesNotMatch(joined.stderr, /sent nothing/);
      assert.deepEqual(userMessages(s), ["no pipe here", "read the log\n\n```stdin\nline one\n```"]);
    });
  });

  it("the same for a shell pipe (Python's stdin=PIPE, a writer that never writes); one that writes is read to its end", async () => {
    await withScenario([ok], async (s) => {
      const viaShell = (line: string) =>
        spawnProcess("sh", ["-c", `${line} | exec "${process.execPath}" "${BOSUN_BIN}" run "$0"`, "from a pipe"], {
          cwd: s.ws.dir,
          env: { ...s.ws.env, AI_SDK_LOG_WARNINGS: "false" },
        });
      const silent = await viaShell("sleep 8").result;
      assert.equal(silent.code, 0, silent.stderr);
      assert.match(silent.stderr, /stdin is open but sent nothing in 2 s: running without it/);
      // Text that comes at once, then more after the first-byte bound: all of it is read.
      const slow = await viaShell("{ echo first; sleep 3; echo second; }").result;
      assert.equal(slow.code, 0, slow.stderr);
      assert.deepEqual(userMessages(s), ["from a pipe", "from a pipe\n\n```stdin\nfirst\nsecond\n```"]);
    });
  });
});

describe("habits: bosun at a terminal (tmux)", () => {
  const env = (s: Scenario) => ({ ...s.ws.env, AI_SDK_LOG_WARNINGS: "false", CI: "true" });

  it('bosun "task" opens the interactive session with the task as its first message', async () => {
    await withScenario(
      [
        { match: { system: TITLE }, reply: { text: "Greeting" } },
        { match: { lastMessage: "say hello" }, reply: { text: "Hello from the first message." } },
        { reply: { text: "Second answer." } },
      ],
      async (s) => {
        const term = startTmux({ cwd: s.ws.dir, env: env(s), args: ["--trust-project", "say hello"] });
        try {
          await term.waitFor(/Hello from the first message\./);
          // Still the interactive session: it takes the next message.
          term.type("and more");
          await term.waitFor(/Second answer\./);
          term.type("/exit");
          const until = Date.now() + 10_000;
          while (term.exitCode() === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
          assert.equal(term.exitCode(), 0, term.screen());
          assert.deepEqual(userMessages(s), ["say hello", "and more"]);
        } finally {
          term.kill();
        }
      },
    );
  });

  it("--trust-project, which the session's messages name, is honoured at the top level", async () => {
    const touch = { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "touch trusted.txt" } }] };
    await withScenario([{ match: { lastMessage: "go" }, reply: touch }, { reply: { text: "Made it." } }], async (s) => {
      const config = JSON.parse(readFileSync(join(s.ws.dir, "bosun.json"), "utf8"));
      s.ws.write("bosun.json", JSON.stringify({ ...config, permission: { shell: { "touch *": "allow" } } }));
      const term = startTmux({ cwd: s.ws.dir, env: env(s), args: ["--trust-project", "go"] });
      try {
        await term.waitFor(/Made it\./);
        assert.doesNotMatch(term.screen(), /needs your approval|Trust these settings/);
        assert.ok(existsSync(join(s.ws.dir, "trusted.txt")));
        const trust = expectDecision(s.latest().decisions, "project.trust", "person", "trusted");
        assert.equal(trust.reasons[0]?.source, "--trust-project");
      } finally {
        term.kill();
      }
    });
  });

  it("-r alone opens the session picker; run-only flags are refused with a pointer at -p", async () => {
    await withScenario([ok], async (s) => {
      assert.equal((await s.run(["run", "earlier work"])).code, 0);
      const term = startTmux({ cwd: s.ws.dir, env: env(s), args: ["-r"] });
      try {
        await term.waitFor(/Resume a session[\s\S]*\d\d:\d\d earlier work/);
        term.keys("Escape");
        await term.waitFor(/kept this session/);
        term.type("/exit");
      } finally {
        term.kill();
      }
      const refused = startTmux({ cwd: s.ws.dir, env: env(s), args: ["--format", "json"] });
      try {
        const until = Date.now() + 10_000;
        while (refused.exitCode() === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
        assert.equal(refused.exitCode(), 2, refused.screen());
        assert.match(refused.screen(), /--format is for a run, not the interactive session: add -p/);
      } finally {
        refused.kill();
      }
    });
  });
});
