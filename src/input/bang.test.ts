import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { expectDecision } from "../../test/support/ledger.js";
import { tempFolder } from "../../test/support/tools.js";
import { bangDecision, bangMessage, runBang, spanRunner } from "./bang.js";

const temp = tempFolder("bang");
const never = () => new AbortController().signal;

/** Whether `pid` still runs: a zombie (killed, waiting for init to reap it) does not. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // The state follows the parenthesised name: "123 (sleep) Z ...".
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true; // no /proc: signal 0 reached it
  }
}

/** Waits until `pid` is gone (killed processes take a moment to be reaped). */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (!alive(pid)) return true;
    await sleep(20);
  }
  return false;
}

describe("runBang", () => {
  it("runs the command with bash in cwd, stdout and stderr together, with its exit code", async () => {
    const result = await runBang("pwd; echo out; echo err >&2; [[ 1 == 1 ]] && exit 3", {
      cwd: temp.path,
      signal: never(),
    });
    assert.equal(result.exitCode, 3);
    assert.equal(result.signal, undefined);
    assert.equal(result.output, `${temp.path}\nout\nerr\n`);
  });

  it("reports exit 0 and writes files in cwd", async () => {
    const result = await runBang("touch made && ls", { cwd: temp.path, signal: never() });
    assert.deepEqual(result, { output: "made\n", exitCode: 0 });
  });

  it("keeps only the last bytes of a long output, without starting inside a character", async () => {
    const result = await runBang("head -c 100000 /dev/zero | tr '\\0' a; printf 'é%.0s' {1..10}; echo END", {
      cwd: temp.path,
      signal: never(),
      maxOutputBytes: 1001,
    });
    assert.equal(result.exitCode, 0);
    assert.ok(result.output.endsWith(`${"é".repeat(10)}END\n`), result.output.slice(-40));
    assert.ok(Buffer.byteLength(result.output) <= 1001);
    assert.ok(result.output.startsWith("a"));
    assert.equal(result.droppedBytes, 100000 + 20 + 4 - Buffer.byteLength(result.output));
  });

  it("kills the whole process group on timeout", async () => {
    const pidFile = join(temp.path, "child.pid");
    const started = Date.now();
    const result = await runBang(`sleep 30 & echo $! > ${pidFile}; echo started; wait`, {
      cwd: temp.path,
      signal: never(),
      timeoutMs: 300,
    });
    assert.ok(Date.now() - started < 5000, "returned soon after the timeout");
    assert.equal(result.timedOut, true);
    assert.equal(result.exitCode, null);
    assert.equal(result.signal, "SIGTERM");
    assert.equal(result.output, "started\n");
    const pid = Number(readFileSync(pidFile, "utf8"));
    assert.ok(await gone(pid), `the background sleep ${pid} was killed with its group`);
  });

  it("kills the group when the signal aborts", async () => {
    const controller = new AbortController();
    const running = runBang("echo hi; sleep 30", { cwd: temp.path, signal: controller.signal });
    await sleep(200);
    controller.abort();
    const result = await running;
    assert.equal(result.cancelled, true);
    assert.equal(result.exitCode, null);
    assert.equal(result.output, "hi\n");
  });

  it("does not wait for a background process that holds the output pipe", async () => {
    const pidFile = join(temp.path, "bg.pid");
    const started = Date.now();
    const result = await runBang(`sleep 30 & echo $! > ${pidFile}; echo done`, { cwd: temp.path, signal: never() });
    assert.ok(Date.now() - started < 5000);
    assert.equal(result.exitCode, 0);
    assert.equal(result.output, "done\n");
    assert.ok(await gone(Number(readFileSync(pidFile, "utf8"))));
  });

  it("withholds credentials from the environment by default; env replaces it", async () => {
    process.env.BOSUN_TEST_SECRET_TOKEN = "s3cret";
    try {
      const byDefault = await runBang('echo "[$BOSUN_TEST_SECRET_TOKEN]"', { cwd: temp.path, signal: never() });
      assert.equal(byDefault.output, "[]\n");
      const given = await runBang('echo "[$ONLY]"', {
        cwd: temp.path,
        signal: never(),
        env: { PATH: process.env.PATH, ONLY: "x" },
      });
      assert.equal(given.output, "[x]\n");
    } finally {
      delete process.env.BOSUN_TEST_SECRET_TOKEN;
    }
  });

  it("reports a missing cwd instead of throwing", async () => {
    const result = await runBang("true", { cwd: join(temp.path, "missing"), signal: never() });
    assert.equal(result.exitCode, null);
    assert.match(result.error ?? "", /could not start/);
  });

  it("spanRunner runs spans like a bang", async () => {
    const run = spanRunner({ cwd: temp.path, signal: never() });
    assert.deepEqual(await run("echo span; exit 2"), { output: "span\n", exitCode: 2 });
    await run("touch by-span");
    assert.ok(existsSync(join(temp.path, "by-span")));
  });
});

describe("bangMessage", () => {
  it("tells the model what the user ran, how it ended and its output", () => {
    assert.equal(
      bangMessage("ls", { output: "a\nb\n", exitCode: 0 }),
      "The user ran `ls` in the shell (exit 0):\na\nb",
    );
    assert.equal(
      bangMessage("false", { output: "", exitCode: 1 }),
      "The user ran `false` in the shell (exit 1):\n(no output)",
    );
    assert.equal(
      bangMessage("sleep 200", { output: "", exitCode: null, signal: "SIGTERM", timedOut: true }),
      "The user ran `sleep 200` in the shell (killed after the timeout (SIGTERM)):\n(no output)",
    );
    assert.equal(
      bangMessage("yes", { output: "y\n", exitCode: 0, droppedBytes: 10 }),
      "The user ran `yes` in the shell (exit 0):\n[the first 10 bytes of output were cut; the rest follows]\ny",
    );
    assert.equal(
      bangMessage("echo `date`", { output: "now\n", exitCode: 0 }),
      "The user ran this in the shell (exit 0):\n~~~sh\necho `date`\n~~~\nOutput:\nnow",
    );
  });
});

describe("bangDecision", () => {
  it("is the person's, with the command and its exit code", async () => {
    const result = await runBang("exit 4", { cwd: temp.path, signal: never() });
    const decision = bangDecision("exit 4", result);
    const d = expectDecision([{ ...decision, seq: 1, at: "" }], "input.command", "person", {
      kind: "bang",
      command: "exit 4",
      exitCode: 4,
    });
    assert.deepEqual(
      d.reasons.map((r) => [r.rule, r.detail]),
      [
        ["shell command typed by the person", "!exit 4"],
        ["ran", "exit 4"],
      ],
    );
  });
});
