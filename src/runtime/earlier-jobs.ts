import type { BackgroundJobs, EarlierJob } from "../contracts/tools.js";
import { EV } from "../session/events.js";
import type { SessionStore } from "../store/session-store.js";

/**
 * The background jobs earlier runs of a session started (`shell` with background): they ended
 * with their run, and a resumed session must not take a new job for one of them. Read once as
 * the session opens, from its calls' results (each names its job).
 */
export function earlierJobs(store: SessionStore, sessionId: string): { jobs: EarlierJob[]; untold: EarlierJob[] } {
  const commands = new Map<string, string>();
  const jobs: EarlierJob[] = [];
  // The model already knows a job ended when it was told so: its end in its own run, or this notice.
  const told = new Set<string>();
  for (const event of store.events(sessionId)) {
    if (event.type === EV.notice) {
      const text = (event.data as { text: string }).text;
      const ended = /^Background job (job-\d+) \(/.exec(text)?.[1];
      if (ended) told.add(ended);
      if (text.startsWith(GONE)) for (const m of text.matchAll(/\b(job-\d+) \(/g)) told.add(m[1] as string);
    } else if (event.type === EV.callStarted) {
      const data = event.data as { id: string; name: string; input: Record<string, unknown> };
      if (data.name === "shell" && data.input.background === true) commands.set(data.id, String(data.input.command));
    } else if (event.type === EV.callFinished) {
      const data = event.data as { id: string; metadata?: Record<string, unknown> };
      const id = data.metadata?.jobId;
      const command = commands.get(data.id);
      if (typeof id === "string" && command !== undefined) jobs.push({ id, command });
    }
  }
  return { jobs, untold: jobs.filter((j) => !told.has(j.id)) };
}

const GONE = "Background jobs started in an earlier run of this session ended with that run";

/** What a resumed session's model is told of them, once: they are gone, and how to get them back. */
export function earlierJobsNotice(jobs: readonly EarlierJob[]): string | undefined {
  if (jobs.length === 0) return undefined;
  const named = jobs.map((j) => `${j.id} (\`${j.command}\`)`).join(", ");
  return `${GONE}: ${named}. Start them again if they are still needed.`;
}

/** A resumed session's jobs of earlier runs: new ids follow theirs, and the model is told of those it was not. */
export function carryOverJobs(store: SessionStore, sessionId: string, jobs: BackgroundJobs): void {
  const earlier = earlierJobs(store, sessionId);
  jobs.carryOver(earlier.jobs);
  const notice = earlierJobsNotice(earlier.untold);
  if (notice) store.append(sessionId, EV.notice, { text: notice });
}
