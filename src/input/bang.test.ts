import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { approveAuthority } from "../../test/support/authority.js";
import { expectDecision } from "../../test/support/ledger.js";
import { tempFolder } from "../../test/support/tools.js";
import { runPersonCall } from "../calls/person.js";
import { sessionRecorder } from "../calls/recorder.js";
import type { Tool } from "../contracts/tools.js";
import type { GateDeps } from "../permission/gate/gate.js";
import { hooksFromConfig } from "../permission/gate/hooks.js";
import { readDecisions, recordDecision } from "../seats/record.js";
import { type CallFinished, EV, type Notice } from "../session/events.js";
import { SessionStore } from "../store/session-store.js";
import { builtinTools } from "../tools/registry.js";
import { bangCall, bangDecision, bangMessage, runBang, shownOf, spanRunner } from "./bang.js";

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

  it("withholds credentials from the environment (the tools' environment)", async () => {
    process.env.BOSUN_TEST_SECRET_TOKEN = "s3cret";
    try {
      const byDefault = await runBang('echo "[$BOSUN_TEST_SECRET_TOKEN]"', { cwd: temp.path, signal: never() });
      assert.equal(byDefault.output, "[]\n");
    } finally {
      delete process.env.BOSUN_TEST_SECRET_TOKEN;
    }
  });

  it("reports a missing cwd instead of throwing", async () => {
    const result = await runBang("true", { cwd: join(temp.path, "missing"), signal: never() });
    assert.equal(result.exitCode, null);
    assert.match(result.error ?? "", /could not start/);
  });

  it("spanRunner runs spans like a bang, each as a call handed to the pipeline", async () => {
    const handed: string[] = [];
    const run = spanRunner({ cwd: temp.path, signal: never() }, async (call) => {
      handed.push(call.command);
      return { ran: true, result: await call.execute() };
    });
    assert.deepEqual(await run("echo span; exit 2"), { output: "span\n", exitCode: 2 });
    await run("touch by-span");
    assert.ok(existsSync(join(temp.path, "by-span")));
    assert.deepEqual(handed, ["echo span; exit 2", "touch by-span"]);
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

describe("a !cmd through the call pipeline (holder person)", () => {
  /** A session in a temporary store, with the person's own config (a post_tool hook on shell) and its gate. */
  function session(hooks: unknown) {
    const ws = join(temp.path, `ws-${Math.random().toString(36).slice(2, 8)}`);
    const home = join(ws, ".home");
    mkdirSync(join(ws, ".git"), { recursive: true });
    mkdirSync(home);
    writeFileSync(join(home, "bosun.json"), JSON.stringify({ hooks }));
    const { config, authority } = approveAuthority(ws, home);
    const store = SessionStore.open(join(home, "bosun.db"));
    const info = store.create({ directory: ws, title: "bang" });
    const signal = never();
    const gate: GateDeps = {
      authority,
      policy: { rules: [], files: [] },
      hooks: hooksFromConfig(config),
      auto: false,
      sandbox: "off",
      visible: [ws],
      saveAlways() {},
      record: (decision) => recordDecision(store, info.id, decision),
      sessionId: info.id,
      signal,
    };
    const deps = {
      shell: builtinTools().find((tool) => tool.name === "shell") as Tool,
      gate,
      recorder: sessionRecorder(store, info.id),
      bounds: { maxLines: 20, maxBytes: 50_000, overflowDir: join(home, "overflow") },
      signal,
    };
    return { ws, store, id: info.id, deps };
  }

  it("is on record before it runs, bounded, followed by its post-hook, and recorded with the person's decision", async () => {
    const hook = `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"seen by the hook"}}'`;
    const s = session({ post_tool: [{ command: hook, tools: ["shell"] }] });
    try {
      const call = bangCall("seq 1 100", { cwd: s.ws, signal: never() });
      const shown = shownOf(await runPersonCall(call, s.deps));
      assert.equal(shown.exitCode, 0);

      const events = s.store.events(s.id);
      const started = events.findIndex((e) => e.type === EV.callStarted);
      const finished = events.findIndex((e) => e.type === EV.callFinished);
      assert.ok(started >= 0 && started < finished, "the write-ahead record comes before the outcome");
      assert.deepEqual(events[started]?.data, { id: call.id, name: "shell", input: { command: "seq 1 100" }, step: 0 });

      const decisions = readDecisions(s.store, s.id);
      expectDecision(decisions, "input.command", "person", { kind: "bang", command: "seq 1 100", exitCode: 0 });
      const hooked = expectDecision(decisions, "call.hook", "hook");
      assert.equal(hooked.subject?.call, call.id);
      const truncate = expectDecision(decisions, "exec.truncate", "config");
      assert.equal((truncate.answer as { kept: string }).kept, "tail", "a command keeps its output's end");

      // The model reads the bounded output, the hook's note after it; the whole is in the overflow file.
      const output = (events[finished]?.data as CallFinished | undefined)?.output ?? "";
      assert.match(output, /^\[Output truncated: the first \d+ lines/);
      assert.match(output, /\n100\n/);
      assert.doesNotMatch(output, /\n50\n/);
      assert.match(output, /\[hook hooks\.post_tool\[0\]\] seen by the hook$/);
      assert.ok(readFileSync((truncate.answer as { file: string }).file, "utf8").includes("\n50\n"));
      const notice = events.filter((e) => e.type === EV.notice).at(-1)?.data as Notice;
      assert.match(notice.text, /^The user ran `seq 1 100` in the shell \(exit 0\):\n\[Output truncated/);
      assert.equal(shown.output, output, "the person sees what was recorded");
    } finally {
      s.store.close();
    }
  });

  it("the spans of the person's own commands go the same way", async () => {
    const s = session({});
    try {
      const run = spanRunner({ cwd: s.ws, signal: never() }, (call) => runPersonCall(call, s.deps));
      assert.deepEqual(await run("echo span; exit 2"), { output: "span\n", exitCode: 2 });
      const events = s.store.events(s.id);
      assert.deepEqual(
        events.filter((e) => e.type.startsWith("call.")).map((e) => e.type),
        [EV.callStarted, EV.callFinished],
      );
      assert.equal((events.find((e) => e.type === EV.callFinished)?.data as CallFinished | undefined)?.isError, true);
    } finally {
      s.store.close();
    }
  });
});
