import type { BackgroundJob } from "../contracts/tools.js";
import { jobStatus } from "../tools/shell-jobs.js";

/** `/jobs`: this run's background jobs, one line each — id, how it stands, its command. */
export function jobsText(jobs: readonly BackgroundJob[]): string {
  if (jobs.length === 0) return "no background jobs in this run";
  return jobs.map((job) => `${job.id}  ${jobStatus(job)}  ${job.command}`).join("\n");
}
