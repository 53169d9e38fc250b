import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { dead, pids, tempFolder, toolContext, waitUntil } from "../../test/support/tools.js";
import { createBackgroundJobs } from "./jobs.js";
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
    assert.equal(result.isError, true);
    assert.equal(result.metadata?.exitCode, 3);
    assert.match(result.summary, /→ exit 3 /);
  });

  it("merges stdout and stderr in the order they were written", async () => {
    const command = "echo one; echo two >&2; echo three; echo four >&2; printf five";
    const result = await shellTool.execute({ command }, toolContext(temp.path));
    assert.equal(result.output, "one\ntwo\nthree\nfour\nfive\nexit code 0");
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
      { command: "sleep 30 & echo $!; sleep 31 & echo $!; wait", timeout_ms: 400 },
      toolContext(temp.path),
    );
    assert.ok(Date.now() - started < 2000, "returns soon after the timeout");
    assert.equal(result.isError, true);
    assert.equal(result.metadata?.timedOut, true);
    assert.match(result.output, /timed out after 0\.4 s; process group killed$/);
    assert.match(result.summary, /→ timed out/);
    const children = pids(result.output);
    assert.equal(children.length, 2);
    assert.ok(await waitUntil(() => children.every(dead), 3000), "background children are gone");
  });

  it("escalates to SIGKILL when the group ignores SIGTERM", async () => {
    const result = await shellTool.execute(
      { command: "trap '' TERM; sleep 30 & echo $!; wait", timeout_ms: 300 },
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
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await shellTool.execute(
      { command: "echo $$; sleep 30" },
      toolContext(temp.path, { signal: controller.signal }),
    );
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
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
