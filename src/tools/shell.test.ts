import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import {
  dead,
  groupGone,
  killGroupQuietly,
  pids,
  runNodeScript,
  tempFolder,
  toolContext,
  waitUntil,
} from "../../test/support/tools.js";
import { setWithheldVariables, toolEnvironment } from "../util/withheld-env.js";
import { createBackgroundJobs } from "./jobs.js";
import { OUTPUT_LIMIT_CHARS, OutputBuffer } from "./process.js";
import { OutputFolder } from "./saved-output.js";
import { shellTool } from "./shell.js";

const temp = tempFolder("shell", "file");

describe("shell", () => {
  it("reports success with output, metadata and a short summary", async () => {
    const result = await shellTool.execute({ command: "echo hello" }, toolContext(temp.path));
    assert.equal(result.output, "hello\nexit code 0");
    assert.equal(result.isError, false);
    assert.equal(result.keep, "tail");
    assert.match(result.summary, /^shell `echo hello` → exit 0 \(\d+\.\d s\)$/);
    assert.equal(result.metadata?.exitCode, 0);
    assert.equal(result.metadata?.signal, null);
    assert.equal(result.metadata?.timedOut, false);
    assert.equal(result.metadata?.cancelled, false);
    assert.equal(typeof result.metadata?.durationMs, "number");
  });

  it("states a non-zero exit code at the end and marks it an error", async () => {
    const result = await shellTool.execute({ command: "echo failing; exit 3" }, toolContext(temp.path));
    assert.equal(result.output, "failing\nexit code 3");
    assert.equal(result.detail, "failing\nexit code 3", "a person expanding the call sees output and status");
    assert.equal(result.isError, true);
    assert.equal(result.metadata?.exitCode, 3);
    assert.match(result.summary, /→ exit 3 /);
  });

  it("merges stdout and stderr in the order they were written", async () => {
    const command = "echo one; echo two >&2; echo three; echo four >&2; printf five";
    const result = await shellTool.execute({ command }, toolContext(temp.path));
    assert.equal(result.output, "one\ntwo\nthree\nfour\nfive\nexit code 0");
  });

  it("shows a person the end of a long output on expansion", async () => {
    const result = await shellTool.execute({ command: "seq 1 100" }, toolContext(temp.path));
    const detail = (result.detail ?? "").split("\n");
    assert.equal(detail[0], "… 71 earlier lines");
    assert.equal(detail[1], "72");
    assert.equal(detail.at(-1), "exit code 0");
  });

  it("says so when there is no output", async () => {
    const result = await shellTool.execute({ command: "true" }, toolContext(temp.path));
    assert.equal(result.output, "(no output)\nexit code 0");
  });

  it("runs in cwd with stdin closed, BOSUN_AGENT=1 and the rest of the environment", async () => {
    process.env.BOSUN_SHELL_TEST = "kept";
    try {
      const result = await shellTool.execute(
        { command: 'pwd; echo "$BOSUN_AGENT $BOSUN_SHELL_TEST"; cat; echo "stdin: $?"' },
        toolContext(temp.path),
      );
      assert.equal(result.output, `${temp.path}\n1 kept\nstdin: 0\nexit code 0`);
    } finally {
      delete process.env.BOSUN_SHELL_TEST;
    }
  });

  it("reports a signal that ended the shell", async () => {
    const result = await shellTool.execute({ command: "kill -KILL $$" }, toolContext(temp.path));
    assert.equal(result.isError, true);
    assert.equal(result.metadata?.signal, "SIGKILL");
    assert.equal(result.metadata?.exitCode, null);
    assert.match(result.output, /killed by signal SIGKILL$/);
  });

  it("on timeout kills the whole process group, children included", async () => {
    const started = Date.now();
    const result = await shellTool.execute(
      { command: "sleep 30 & echo $!; sleep 31 & echo $!; wait", timeout_ms: 1500 },
      toolContext(temp.path),
    );
    // Generous: on a loaded CI machine starting two processes can take a while.
    assert.ok(Date.now() - started < 4000, "returns soon after the timeout");
    assert.equal(result.isError, true);
    assert.equal(result.metadata?.timedOut, true);
    assert.match(result.output, /timed out after 1\.5 s; process group killed$/);
    assert.match(result.summary, /→ timed out/);
    const children = pids(result.output);
    assert.equal(children.length, 2);
    assert.ok(await waitUntil(() => children.every(dead), 3000), "background children are gone");
  });

  it("escalates to SIGKILL when the group ignores SIGTERM", async () => {
    const result = await shellTool.execute(
      { command: "trap '' TERM; sleep 30 & echo $!; wait", timeout_ms: 1000 },
      toolContext(temp.path),
    );
    assert.equal(result.metadata?.timedOut, true);
    assert.equal(result.metadata?.signal, "SIGKILL");
    const [child] = pids(result.output);
    assert.ok(child);
    assert.ok(await waitUntil(() => dead(child), 1000));
  });

  it("kills promptly when the signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1000);
    const started = Date.now();
    const result = await shellTool.execute(
      { command: "echo $$; sleep 30" },
      toolContext(temp.path, { signal: controller.signal }),
    );
    assert.ok(Date.now() - started < 3500, `took ${Date.now() - started} ms`);
    assert.equal(result.isError, true);
    assert.equal(result.metadata?.cancelled, true);
    assert.equal(result.metadata?.timedOut, false);
    assert.match(result.output, /cancelled; process group killed$/);
    const [shell] = pids(result.output);
    assert.ok(shell && dead(shell));
  });

  it("does not start when already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await shellTool.execute(
      { command: "touch started" },
      toolContext(temp.path, { signal: controller.signal }),
    );
    assert.equal(result.isError, true);
    assert.equal(result.metadata?.cancelled, true);
    assert.equal(existsSync(join(temp.path, "started")), false);
  });

  it("clamps a timeout above the maximum and says so", async () => {
    const result = await shellTool.execute(
      { command: "echo ok", timeout_ms: 900_000 },
      toolContext(temp.path, { limits: { shellMaxTimeoutMs: 600_000 } }),
    );
    assert.equal(result.isError, false);
    assert.match(result.output, /note: timeout_ms 900000 is above the maximum; clamped to 600000\nexit code 0$/);
  });

  it("uses the default timeout from the limits", async () => {
    const result = await shellTool.execute(
      { command: "sleep 5" },
      toolContext(temp.path, { limits: { shellTimeoutMs: 300 } }),
    );
    assert.equal(result.metadata?.timedOut, true);
  });

  it("kills processes the command leaves running and returns at once", async () => {
    const started = Date.now();
    const result = await shellTool.execute({ command: "sleep 30 & echo $!" }, toolContext(temp.path));
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
    assert.equal(result.isError, false);
    assert.match(result.output, /note: processes the command left running were killed/);
    const [child] = pids(result.output);
    assert.ok(child);
    assert.ok(await waitUntil(() => dead(child), 1000));
  });

  it("reports a missing working directory as an error", async () => {
    const result = await shellTool.execute({ command: "true" }, toolContext(join(temp.path, "missing")));
    assert.equal(result.isError, true);
    assert.match(result.output, /does not exist/);
  });

  it("shortens long commands in the summary", async () => {
    const command = `echo ${"x".repeat(100)}`;
    const result = await shellTool.execute({ command }, toolContext(temp.path));
    const shown = /`(.*)`/.exec(result.summary)?.[1] ?? "";
    assert.ok(shown.length <= 60 && shown.endsWith("…"), shown);
  });

  it("starts a background job and returns at once", async () => {
    const ctx = toolContext(temp.path, { jobs: createBackgroundJobs() });
    const result = await shellTool.execute({ command: "sleep 0.2; echo done; exit 4", background: true }, ctx);
    assert.equal(result.isError, undefined);
    assert.match(result.output, /^Started background job job-1\. Its completion will be reported in a later step\.$/);
    assert.equal(result.metadata?.jobId, "job-1");
    assert.match(result.summary, /→ background job-1$/);
    let reported: ReturnType<typeof ctx.jobs.takeFinished> = [];
    assert.ok(
      await waitUntil(() => {
        reported = ctx.jobs.takeFinished();
        return reported.length > 0;
      }, 3000),
    );
    assert.equal(reported[0]?.output, "done\n");
    assert.equal(reported[0]?.exitCode, 4);
  });

  it("validates its input strictly", () => {
    assert.equal(shellTool.schema.safeParse({ command: "ls", extra: 1 }).success, false);
    assert.equal(shellTool.schema.safeParse({ command: "ls", timeout_ms: -1 }).success, false);
    assert.equal(shellTool.schema.safeParse({ command: "ls", timeout_ms: 10, background: false }).success, true);
  });
});

describe("shell: processes do not outlive bosun", () => {
  const processUrl = pathToFileURL(join(import.meta.dirname, "process.ts")).href;

  it("kills a group that ignores SIGTERM when bosun leaves with process.exit", async () => {
    // Like a second Ctrl-C during a foreground call: run.ts calls process.exit(130) at once.
    const script = `
      import { spawnShell } from ${JSON.stringify(processUrl)};
      const proc = spawnShell("trap '' TERM INT; sleep 300 & echo $!; echo $$; exec sleep 300", { cwd: ${JSON.stringify(temp.path)} });
      const poll = setInterval(() => {
        const text = proc.output.text();
        if (text.split("\\n").length > 2) { clearInterval(poll); process.stdout.write(text); process.exit(130); }
      }, 10);
    `;
    const end = await runNodeScript(script);
    const [child, group] = pids(end.stdout);
    assert.ok(child && group, end.stdout);
    try {
      assert.equal(end.code, 130);
      assert.ok(await waitUntil(() => groupGone(group), 2000), "the process group was killed at exit");
      assert.ok(dead(child));
    } finally {
      killGroupQuietly(group);
    }
  });

  it("kills strays that closed their output when bosun exits right after the call returns", async () => {
    // The call settles at once (the pipe closed) while the stray, ignoring SIGTERM, waits for its SIGKILL.
    const script = `
      import { spawnShell } from ${JSON.stringify(processUrl)};
      const proc = spawnShell("trap '' TERM; sleep 300 >/dev/null 2>&1 & echo $$", { cwd: ${JSON.stringify(temp.path)} });
      const end = await proc.finished;
      process.stdout.write(proc.output.text() + (end.strays ? "strays\\n" : ""));
      process.exit(0);
    `;
    const end = await runNodeScript(script);
    const [group] = pids(end.stdout);
    assert.ok(group, end.stdout);
    try {
      assert.equal(end.code, 0);
      assert.match(end.stdout, /strays/);
      assert.ok(await waitUntil(() => groupGone(group), 2000), "the stray was killed at exit");
    } finally {
      killGroupQuietly(group);
    }
  });
});

describe("shell: environment", () => {
  const set = (values: Record<string, string>) => Object.assign(process.env, values);
  const unset = (...names: string[]) => {
    for (const name of names) delete process.env[name];
  };
  const names = [
    "ANTHROPIC_API_KEY",
    "OPENROUTER_API_KEY",
    "BOSUN_TEST_ACCESS_KEY",
    "BOSUN_TEST_SECRET",
    "bosun_test_token",
    "BOSUN_TEST_FROM_CONFIG",
    "BOSUN_TEST_ORDINARY",
  ];
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  afterEach(() => {
    unset(...names);
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    setWithheldVariables([]);
  });

  it("withholds provider keys, secret-looking names and the config's variables; keeps the rest", async () => {
    set({
      ANTHROPIC_API_KEY: "sk-ant-withheld",
      OPENROUTER_API_KEY: "sk-or-withheld",
      BOSUN_TEST_ACCESS_KEY: "access-withheld",
      BOSUN_TEST_SECRET: "secret-withheld",
      bosun_test_token: "token-withheld",
      BOSUN_TEST_FROM_CONFIG: "config-withheld",
      BOSUN_TEST_ORDINARY: "ordinary-kept",
    });
    setWithheldVariables(["BOSUN_TEST_FROM_CONFIG"]);
    const result = await shellTool.execute({ command: "env" }, toolContext(temp.path));
    assert.equal(result.isError, false);
    assert.doesNotMatch(result.output, /withheld/);
    for (const name of names.slice(0, -1)) assert.doesNotMatch(result.output, new RegExp(`^${name}=`, "m"));
    assert.match(result.output, /^BOSUN_TEST_ORDINARY=ordinary-kept$/m);
    assert.match(result.output, new RegExp(`^HOME=${process.env.HOME}$`, "m"));
    assert.match(result.output, /^PATH=/m);
    assert.match(result.output, /^BOSUN_AGENT=1$/m);
    assert.doesNotMatch(result.output, /note:/, "the command names no withheld variable");
  });

  it("setWithheldVariables replaces the previous list", () => {
    set({ BOSUN_TEST_FROM_CONFIG: "v", BOSUN_TEST_ORDINARY: "w" });
    setWithheldVariables(["BOSUN_TEST_FROM_CONFIG", "BOSUN_TEST_ORDINARY"]);
    assert.equal(toolEnvironment().BOSUN_TEST_FROM_CONFIG, undefined);
    setWithheldVariables(["BOSUN_TEST_ORDINARY"]);
    assert.equal(toolEnvironment().BOSUN_TEST_FROM_CONFIG, "v");
    assert.equal(toolEnvironment().BOSUN_TEST_ORDINARY, undefined);
  });

  it("notes a withheld variable the command names", async () => {
    set({ ANTHROPIC_API_KEY: "sk-ant-withheld", BOSUN_TEST_FROM_CONFIG: "config-withheld" });
    setWithheldVariables(["BOSUN_TEST_FROM_CONFIG"]);
    const result = await shellTool.execute(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion, not a template
      { command: 'echo "[$ANTHROPIC_API_KEY][${BOSUN_TEST_FROM_CONFIG}][$HOME_X]"' },
      toolContext(temp.path),
    );
    assert.equal(
      result.output,
      "[][][]\nnote: bosun withholds ANTHROPIC_API_KEY and BOSUN_TEST_FROM_CONFIG from the tools' environment (secrets stay out of the session)\nexit code 0",
    );
  });

  it("gives background jobs the same environment and the same note", async () => {
    set({ ANTHROPIC_API_KEY: "sk-ant-withheld" });
    const ctx = toolContext(temp.path, { jobs: createBackgroundJobs() });
    const result = await shellTool.execute({ command: 'env; echo "[$ANTHROPIC_API_KEY]"', background: true }, ctx);
    assert.match(result.output, /\nnote: bosun withholds ANTHROPIC_API_KEY from the tools' environment/);
    let reported: ReturnType<typeof ctx.jobs.takeFinished> = [];
    assert.ok(
      await waitUntil(() => {
        reported = ctx.jobs.takeFinished();
        return reported.length > 0;
      }, 3000),
    );
    const output = reported[0]?.output ?? "";
    assert.match(output, /^BOSUN_AGENT=1$/m);
    assert.doesNotMatch(output, /withheld/);
    assert.match(output, /^\[\]$/m);
  });
});

describe("shell: long output", () => {
  /** A fresh saved-output folder under the file's temp folder, capped at `maxBytes`. */
  let roots = 0;
  const outputFolder = (maxBytes = 500 * 1024 * 1024, session = "ses_1") =>
    new OutputFolder(join(temp.path, `data-${++roots}`, "overflow"), session, maxBytes);

  it("saves output longer than the in-memory limit to an owner-only file in the session's folder, and says where", async () => {
    const count = 300_000;
    const expected = `${Array.from({ length: count }, (_, i) => i + 1).join("\n")}\n`;
    assert.ok(expected.length > OUTPUT_LIMIT_CHARS);
    const folder = outputFolder();
    const result = await shellTool.execute(
      { command: `seq 1 ${count}` },
      { ...toolContext(temp.path), output: folder },
    );
    const path = result.metadata?.fullOutputPath;
    assert.equal(typeof path, "string");
    assert.equal(dirname(path as string), folder.path);
    assert.equal(statSync(path as string).mode & 0o777, 0o600);
    assert.equal(statSync(folder.path).mode & 0o777, 0o700);
    assert.equal(statSync(folder.root).mode & 0o777, 0o700);
    assert.equal(readFileSync(path as string, "utf8"), expected, "the file holds the whole output");
    assert.equal(result.metadata?.outputChars, expected.length);
    assert.equal(result.metadata?.droppedChars, expected.length - OUTPUT_LIMIT_CHARS);
    assert.equal(result.isError, false);
    const dropped = expected.length - OUTPUT_LIMIT_CHARS;
    assert.ok(
      result.output.endsWith(
        `\n${count}\nnote: the output is ${expected.length} characters; the first ${dropped} are not in this result. The full output is in ${path}\nexit code 0`,
      ),
      result.output.slice(-300),
    );
    const body = result.output.slice(0, result.output.indexOf("\nnote: the output is") + 1);
    assert.equal(body, expected.slice(dropped), "the result keeps the last OUTPUT_LIMIT_CHARS characters");
  });

  it("without a saved-output folder, saves nothing and says the start was dropped", async () => {
    const result = await shellTool.execute({ command: "seq 1 300000" }, toolContext(temp.path));
    assert.equal(result.metadata?.fullOutputPath, undefined);
    assert.match(result.output, /note: the output is \d+ characters; the first \d+ were dropped\nexit code 0$/);
  });

  it("does not claim the file is the full output when saving stopped at its cap", () => {
    const buffer = new OutputBuffer(10, { folder: outputFolder(), maxFileChars: 25 });
    for (let i = 0; i < 10; i++) buffer.append("abcdefgh\n".replace("a", String(i))); // 90 characters
    buffer.close();
    const path = buffer.filePath;
    assert.ok(path);
    assert.equal(readFileSync(path, "utf8"), "0bcdefgh\n1bcdefgh\n2bcdefg");
    assert.equal(buffer.kept(), "\n9bcdefgh\n");
    assert.equal(
      buffer.droppedNote(),
      `the output is 90 characters; the first 80 are not in this result. Only the first 25 were saved, in ${path}; characters 26 to 80 are lost`,
    );
    assert.equal(buffer.complete, false);
  });

  it("makes room under the saved outputs' cap by deleting the oldest other files first", () => {
    const folder = outputFolder(100, "ses_new");
    const old = join(folder.root, "ses_old");
    mkdirSync(old, { recursive: true });
    for (const [name, age] of [
      ["oldest.txt", 3000],
      ["older.txt", 2000],
      ["newer.txt", 1000],
    ] as const) {
      writeFileSync(join(old, name), "x".repeat(30));
      const at = new Date(Date.now() - age * 1000);
      utimesSync(join(old, name), at, at);
    }
    const buffer = new OutputBuffer(10, { folder });
    buffer.append("y".repeat(40)); // 40 bytes: 90 + 40 > 100, so the oldest goes (60 + 40 fits)
    buffer.close();
    assert.deepEqual(readdirSync(old).sort(), ["newer.txt", "older.txt"]);
    assert.equal(readFileSync(buffer.filePath as string, "utf8"), "y".repeat(40));
    assert.equal(buffer.complete, true);
  });

  it("stops saving at the cap, on a character boundary, and says why, when nothing else is left to delete", () => {
    const buffer = new OutputBuffer(10, { folder: outputFolder(25) });
    buffer.append("é".repeat(20)); // 40 bytes: 12 whole characters (24 bytes) fit under 25
    buffer.append("more");
    buffer.close();
    const path = buffer.filePath as string;
    assert.equal(readFileSync(path, "utf8"), "é".repeat(12));
    assert.equal(buffer.complete, false);
    assert.equal(
      buffer.droppedNote(),
      `the output is 24 characters; the first 14 are not in this result. Only the first 12 were saved, in ${path} (bosun's saved outputs reached their cap of 25 bytes, storage.output_max_mb); characters 13 to 14 are lost`,
    );
  });

  it("keeps only the tail in memory, without a file, when not asked to save", () => {
    const buffer = new OutputBuffer(4);
    buffer.append("abcdefgh");
    assert.equal(buffer.filePath, undefined);
    assert.equal(buffer.text(), "[4 earlier characters of output dropped]\nefgh");
  });
});
