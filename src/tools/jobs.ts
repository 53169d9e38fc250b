import type { BackgroundJob, BackgroundJobs, EarlierJob, JobRead } from "../contracts/tools.js";
import { type ShellProcess, spawnShell } from "./process.js";

/** A background job as this implementation reports it: the contract's fields plus how it ended. */
export interface ShellJob extends BackgroundJob {
  /** The signal that ended the job (exitCode is then null), e.g. SIGTERM after killAll. */
  signal?: NodeJS.Signals | null;
  durationMs?: number;
}

interface Entry {
  job: ShellJob;
  proc: ShellProcess;
  /** How many characters of its output the model has read (shell_output). */
  readTo: number;
}

/**
 * Background shell jobs of one session. Each job runs like the shell tool (`bash -c`, own process
 * group, merged output, the tools' environment without withheld secrets) but does not keep Node alive
 * and keeps only the last ~1 MB of output (a job may run for hours, so nothing is saved to a file; the
 * output then starts with a line saying how much was dropped); `output` is read live. Jobs still running
 * when Node exits are killed with SIGKILL (see process.ts).
 */
export function createBackgroundJobs(): BackgroundJobs {
  let counter = 0;
  const entries = new Map<string, Entry>();
  const earlier = new Map<string, EarlierJob>();
  let finished: ShellJob[] = [];

  return {
    start(command, cwd, confine) {
      const id = `job-${++counter}`;
      const proc = spawnShell(command, { cwd, keepAlive: false, ...(confine ? { confine } : {}) });
      const job: ShellJob = { id, command, done: false, output: "" };
      // A live, enumerable getter: the output so far while running, all of it once done.
      Object.defineProperty(job, "output", { enumerable: true, get: () => proc.output.text() });
      entries.set(id, { job, proc, readTo: 0 });
      void proc.finished.then((end) => {
        if (end.error !== undefined) proc.output.append(`${end.error}\n`);
        job.done = true;
        job.exitCode = end.exitCode;
        job.signal = end.signal;
        job.durationMs = end.durationMs;
        finished.push(job);
      });
      return job;
    },
    takeFinished() {
      const taken = finished;
      finished = [];
      return taken;
    },
    killAll() {
      for (const { job, proc } of entries.values()) if (!job.done) proc.terminate();
    },
    list: () => [...entries.values()].map((e) => e.job),
    read(id): JobRead | undefined {
      const entry = entries.get(id);
      if (!entry) return undefined;
      const { output } = entry.proc;
      // The buffer keeps the newest characters: those before `dropped` are gone.
      const from = Math.max(entry.readTo, output.dropped);
      const text = output.kept().slice(from - output.dropped);
      const lost = from - entry.readTo;
      entry.readTo = output.total;
      return { job: entry.job, text, lost };
    },
    kill(id) {
      const entry = entries.get(id);
      if (!entry || entry.job.done) return false;
      entry.proc.terminate();
      return true;
    },
    carryOver(jobs) {
      for (const job of jobs) {
        earlier.set(job.id, job);
        const n = Number(/^job-(\d+)$/.exec(job.id)?.[1] ?? 0);
        if (n > counter) counter = n;
      }
    },
    earlier: (id) => earlier.get(id),
  };
}
