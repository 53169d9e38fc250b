import { z } from "zod";
import type { BackgroundJob, BackgroundJobs, Tool, ToolResult } from "../contracts/tools.js";
import type { ShellJob } from "./jobs.js";

/** Most characters of new output one shell_output call returns (the newest kept); the loop bounds it again. */
const READ_MAX_CHARS = 30_000;

const jobSchema = z.strictObject({
  job: z.string().min(1).describe("Job id, e.g. job-1"),
});

export type JobInput = z.infer<typeof jobSchema>;

/** How a job stands, in words. */
export function jobStatus(job: BackgroundJob): string {
  if (!job.done) return "running";
  const signal = (job as ShellJob).signal;
  return job.exitCode === null || job.exitCode === undefined
    ? `stopped (${signal ?? "killed"})`
    : `exited with code ${job.exitCode}`;
}

/** The answer for an id that is not one of this run's jobs: gone with an earlier run, or unknown. */
function notHere(jobs: BackgroundJobs, id: string, verb: string): ToolResult {
  const earlier = jobs.earlier(id);
  const here = jobs.list().map((j) => `${j.id} (${jobStatus(j)})`);
  const known = here.length > 0 ? `This run's jobs: ${here.join(", ")}.` : "This run has started no background jobs.";
  return {
    output: earlier
      ? `${id} (\`${earlier.command}\`) was started by an earlier run of this session and ended with it. Start it again with shell and background if it is still needed. ${known}`
      : `There is no background job ${id}. ${known}`,
    isError: true,
    summary: `${verb} ${id} (not here)`,
  };
}

/**
 * `shell_output {job}`: what a background job wrote since the last look, and whether it still runs.
 * It reads only what a command already judged and started has printed: its one request is
 * `job:<id>`, allowed by default.
 */
export const shellOutputTool: Tool<JobInput> = {
  name: "shell_output",
  description: "A background job's output since the last read, and its status.",
  schema: jobSchema,
  kind: "read",
  requests: async (input) => ({ requests: [{ action: "job", resource: input.job }] }),
  async execute(input, ctx): Promise<ToolResult> {
    const read = ctx.jobs.read(input.job);
    if (!read) return notHere(ctx.jobs, input.job, "shell_output");
    const { job, lost } = read;
    let text = read.text;
    let cut = 0;
    if (text.length > READ_MAX_CHARS) {
      cut = text.length - READ_MAX_CHARS;
      text = text.slice(cut);
    }
    const head = [
      `${job.id} (\`${job.command}\`): ${jobStatus(job)}.`,
      ...(lost + cut > 0 ? [`[${lost + cut} earlier characters of new output not shown]`] : []),
    ];
    const body = text === "" ? "(no new output)" : text;
    return {
      output: `${head.join("\n")}\n${body}`,
      summary: `shell_output ${job.id} (${jobStatus(job)}, ${text.length} chars)`,
      keep: "tail",
      metadata: { jobId: job.id, done: job.done, exitCode: job.exitCode ?? null },
    };
  },
};

/** `shell_kill {job}`: stops a background job this run started (its whole process group). Request `job:<id>`. */
export const shellKillTool: Tool<JobInput> = {
  name: "shell_kill",
  description: "Stop a background job.",
  schema: jobSchema,
  kind: "shell",
  requests: async (input) => ({ requests: [{ action: "job", resource: input.job }] }),
  async execute(input, ctx): Promise<ToolResult> {
    const job = ctx.jobs.list().find((j) => j.id === input.job);
    if (!job) return notHere(ctx.jobs, input.job, "shell_kill");
    if (!ctx.jobs.kill(job.id))
      return {
        output: `${job.id} had already ended: ${jobStatus(job)}.`,
        summary: `shell_kill ${job.id} (already ended)`,
      };
    return {
      output: `Stopping ${job.id} (\`${job.command}\`): sent SIGTERM to its process group (SIGKILL follows if it lingers). Its end is reported in a later step.`,
      summary: `shell_kill ${job.id}`,
      metadata: { jobId: job.id },
    };
  },
};
