import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import {
  dead,
  groupGone,
  killGroupQuietly,
  pids,
  runNodeScript,
  tempFolder,
  waitUntil,
} from "../../test/support/tools.js";
import type { BackgroundJob, BackgroundJobs } from "../contracts/tools.js";
import { createBackgroundJobs, type ShellJob } from "./jobs.js";

async function takeWithin(jobs: BackgroundJobs, count: number, ms: number): Promise<BackgroundJob[]> {
  const taken: BackgroundJob[] = [];
  await waitUntil(() => {
    taken.push(...jobs.takeFinished());
    return taken.length >= count;
  }, ms);
  return taken;
}

const temp = tempFolder("jobs", "file");
const jobsUrl = pathToFileURL(join(import.meta.dirname, "jobs.ts")).href;

describe("background jobs", () => {
  it("numbers jobs and reports each finished job once, with output and exit code", async () => {
    const jobs = createBackgroundJobs();
    const first = jobs.start("echo out; echo err >&2; pwd", temp.path);
    const second = jobs.start("sleep 0.1; exit 2", temp.path);
    assert.equal(first.id, "job-1");
    assert.equal(second.id, "job-2");
    assert.equal(first.done, false);
    assert.equal(first.command, "echo out; echo err >&2; pwd");

    const taken = await takeWithin(jobs, 2, 3000);
    assert.deepEqual(
      taken.map((job) => job.id),
      ["job-1", "job-2"],
    );
    assert.equal(taken[0], first, "the object start returned, now done");
    assert.equal(first.done, true);
    assert.equal(first.exitCode, 0);
    assert.equal(first.output, `out\nerr\n${temp.path}\n`);
    assert.equal(second.exitCode, 2);
    assert.deepEqual(jobs.takeFinished(), [], "reported once");
    assert.match(JSON.stringify(first), /"output":"out\\nerr\\n/);
  });

  it("shows output while the job runs", async () => {
    const jobs = createBackgroundJobs();
    const job = jobs.start("echo started; sleep 30", temp.path);
    assert.ok(await waitUntil(() => job.output === "started\n", 2000));
    assert.equal(job.done, false);
    assert.deepEqual(jobs.takeFinished(), []);
    jobs.killAll();
    await takeWithin(jobs, 1, 3000);
  });

  it("killAll kills every running job's process group, children included", async () => {
    const jobs = createBackgroundJobs();
    const a = jobs.start("echo $$; sleep 30 & echo $!; wait", temp.path);
    const b = jobs.start("echo $$; sleep 30", temp.path);
    const done = jobs.start("true", temp.path);
    assert.ok(await waitUntil(() => pids(a.output).length === 2 && pids(b.output).length === 1 && done.done, 2000));
    assert.deepEqual(
      jobs.takeFinished().map((job) => job.id),
      [done.id],
    );

    const started = Date.now();
    jobs.killAll();
    const taken = (await takeWithin(jobs, 2, 3000)) as ShellJob[];
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
    assert.deepEqual(taken.map((job) => job.id).sort(), [a.id, b.id]);
    for (const job of taken) {
      assert.equal(job.exitCode, null);
      assert.equal(job.signal, "SIGTERM");
    }
    const all = [...pids(a.output), ...pids(b.output)];
    assert.ok(await waitUntil(() => all.every(dead), 2000), "all processes are gone");
    jobs.killAll(); // nothing left to kill: harmless
  });

  it("leaves no zombie: a finished job's shell is reaped", async () => {
    const jobs = createBackgroundJobs();
    const job = jobs.start("echo $$", temp.path);
    await takeWithin(jobs, 1, 2000);
    const [pid] = pids(job.output);
    assert.ok(pid);
    assert.equal(existsSync(`/proc/${pid}`), false);
  });

  it("reports a job that cannot start as finished", async () => {
    const jobs = createBackgroundJobs();
    jobs.start("true", join(temp.path, "missing"));
    const [job] = await takeWithin(jobs, 1, 2000);
    assert.equal(job?.done, true);
    assert.equal(job?.exitCode, null);
    assert.match(job?.output ?? "", /does not exist/);
  });

  it("does not keep Node alive, and kills running jobs when Node exits", async () => {
    const end = await runNodeScript(
      `
      import { createBackgroundJobs } from ${JSON.stringify(jobsUrl)};
      const job = createBackgroundJobs().start("sleep 30 & echo $!; wait", ${JSON.stringify(temp.path)});
      const poll = setInterval(() => {
        if (job.output) { clearInterval(poll); process.stdout.write(job.output); }
      }, 10);
    `,
      5000,
    );
    assert.equal(end.code, 0);
    const [sleeper] = pids(end.stdout);
    assert.ok(sleeper, end.stdout);
    assert.ok(await waitUntil(() => dead(sleeper), 2000), "the job was killed at exit");
  });

  it("kills a job that ignores SIGTERM when Node exits normally", async () => {
    const end = await runNodeScript(
      `
      import { createBackgroundJobs } from ${JSON.stringify(jobsUrl)};
      const job = createBackgroundJobs().start("trap '' TERM INT; sleep 300 & echo $!; echo $$; wait", ${JSON.stringify(temp.path)});
      const poll = setInterval(() => {
        if (job.output.split("\\n").length > 2) { clearInterval(poll); process.stdout.write(job.output); }
      }, 10);
    `,
      5000,
    );
    const [sleeper, group] = pids(end.stdout);
    assert.ok(sleeper && group, end.stdout);
    try {
      assert.equal(end.code, 0);
      assert.ok(await waitUntil(() => groupGone(group), 2000), "the job's process group was killed at exit");
      assert.ok(dead(sleeper));
    } finally {
      killGroupQuietly(group);
    }
  });

  it("runs jobs without provider keys in their environment", async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-withheld";
    try {
      const jobs = createBackgroundJobs();
      const job = jobs.start('echo "[$OPENAI_API_KEY][$BOSUN_AGENT]"', temp.path);
      await takeWithin(jobs, 1, 2000);
      assert.equal(job.output, "[][1]\n");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it("read gives what a job wrote since the last read; kill stops a running one only", async () => {
    const jobs = createBackgroundJobs();
    const job = jobs.start("echo one; sleep 0.3; echo two; sleep 30", temp.path);
    await waitUntil(() => job.output.includes("one"), 5000);
    const first = jobs.read(job.id);
    assert.equal(first?.text, "one\n");
    assert.equal(first?.lost, 0);
    await waitUntil(() => job.output.includes("two"), 5000);
    assert.equal(jobs.read(job.id)?.text, "two\n");
    assert.equal(jobs.read(job.id)?.text, "");
    assert.equal(jobs.read("job-9"), undefined);
    assert.equal(jobs.kill(job.id), true);
    await takeWithin(jobs, 1, 5000);
    assert.equal(job.done, true);
    assert.equal(jobs.kill(job.id), false, "an ended job is not killed again");
    assert.deepEqual(
      jobs.list().map((j) => j.id),
      [job.id],
    );
  });

  it("a resumed session's new jobs take ids after the earlier runs' ones, which are known as gone", () => {
    const jobs = createBackgroundJobs();
    jobs.carryOver([
      { id: "job-1", command: "npm run dev" },
      { id: "job-3", command: "tail -f log" },
    ]);
    const job = jobs.start("true", temp.path);
    assert.equal(job.id, "job-4");
    assert.equal(jobs.earlier("job-3")?.command, "tail -f log");
    assert.equal(jobs.earlier("job-4"), undefined);
    jobs.killAll();
  });
});
