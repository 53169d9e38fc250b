import { z } from "zod";
import type { Tool, ToolResult } from "../contracts/tools.js";
import { shellRequests } from "../permission/rules/call-requests.js";
import { lastLines } from "../util/lines.js";
import { withheldMentions } from "../util/withheld-env.js";
import { spawnShell } from "./process.js";

/** Lines of a command's output a person sees on expanding its call (the end, where the status is). */
const DETAIL_LINES = 30;

const schema = z.strictObject({
  command: z.string().min(1).describe("Bash command"),
  timeout_ms: z.number().int().positive().optional().describe("Timeout in ms"),
  background: z.boolean().optional().describe("Run as a background job; its completion is reported later"),
});

export type ShellInput = z.infer<typeof schema>;

export const shellTool: Tool<ShellInput> = {
  name: "shell",
  description:
    "Run a bash command in the workspace (stdin closed, stdout+stderr merged). " +
    "Use background for servers and watchers.",
  schema,
  kind: "shell",
  requests: (input, where) => shellRequests(input.command, where),
  async execute(input, ctx): Promise<ToolResult> {
    const label = `shell \`${shorten(input.command)}\``;
    const withheld = withheldNote(input.command);

    if (input.background) {
      const job = ctx.jobs.start(input.command, ctx.cwd, ctx.confine);
      const notes = [`Started background job ${job.id}. Its completion will be reported in a later step.`];
      if (input.timeout_ms !== undefined) notes.push("timeout_ms does not apply to background jobs.");
      if (withheld) notes.push(`note: ${withheld}`);
      return { output: notes.join("\n"), summary: `${label} → background ${job.id}`, metadata: { jobId: job.id } };
    }

    const notes: string[] = [];
    let timeoutMs = input.timeout_ms ?? ctx.limits.shellTimeoutMs;
    if (timeoutMs > ctx.limits.shellMaxTimeoutMs) {
      notes.push(`timeout_ms ${timeoutMs} is above the maximum; clamped to ${ctx.limits.shellMaxTimeoutMs}`);
      timeoutMs = ctx.limits.shellMaxTimeoutMs;
    }

    if (ctx.signal.aborted) {
      return {
        output: "cancelled before it started",
        isError: true,
        summary: `${label} → cancelled`,
        metadata: { exitCode: null, signal: null, timedOut: false, cancelled: true, durationMs: 0 },
      };
    }

    const proc = spawnShell(input.command, {
      cwd: ctx.cwd,
      ...(ctx.output ? { saveOutput: ctx.output } : {}),
      ...(ctx.confine ? { confine: ctx.confine } : {}),
    });
    let timedOut = false;
    let cancelled = false;
    const timer = setTimeout(() => {
      timedOut = true;
      proc.terminate();
    }, timeoutMs);
    const onAbort = (): void => {
      cancelled = true;
      proc.terminate();
    };
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    const end = await proc.finished;
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);

    const metadata: Record<string, unknown> = {
      exitCode: end.exitCode,
      signal: end.signal,
      timedOut,
      cancelled,
      durationMs: end.durationMs,
    };
    const output = proc.output;
    if (output.dropped > 0) {
      // The result holds only the last OUTPUT_LIMIT_CHARS characters: say how much there was and where it all is.
      metadata.outputChars = output.total;
      metadata.droppedChars = output.dropped;
      if (output.complete) metadata.fullOutputPath = output.filePath;
      else if (output.filePath !== undefined) metadata.partialOutputPath = output.filePath;
    }
    const seconds = formatSeconds(end.durationMs);

    if (end.error !== undefined) {
      return { output: end.error, isError: true, summary: `${label} → failed to start`, metadata };
    }

    let status: string;
    let short: string;
    if (cancelled) {
      status = "cancelled; process group killed";
      short = "cancelled";
    } else if (timedOut) {
      status = `timed out after ${formatSeconds(timeoutMs)}; process group killed`;
      short = "timed out";
    } else if (end.exitCode !== null) {
      status = `exit code ${end.exitCode}`;
      short = `exit ${end.exitCode}`;
    } else {
      status = `killed by signal ${end.signal ?? "unknown"}`;
      short = end.signal ?? "killed";
    }
    if (end.strays && !timedOut && !cancelled) {
      notes.push("processes the command left running were killed; use background for long-running processes");
    }

    const dropped = output.droppedNote();
    if (dropped !== undefined) notes.push(dropped);
    if (withheld) notes.push(withheld);

    // Notes go at the end, which is the end the loop keeps when it bounds shell output.
    let text = output.kept();
    if (text === "") text = "(no output)\n";
    else if (!text.endsWith("\n")) text += "\n";
    const tail = [...notes.map((note) => `note: ${note}`), status].join("\n");

    return {
      output: `${text}${tail}`,
      isError: cancelled || timedOut || end.exitCode !== 0,
      summary: `${label} → ${short} (${seconds})`,
      detail: lastLines(`${text}${tail}`, DETAIL_LINES),
      metadata,
      keep: "tail",
    };
  },
};

/** A note when `command` names variables bosun keeps out of the tools' environment; else undefined. */
function withheldNote(command: string): string | undefined {
  const names = withheldMentions(command);
  if (names.length === 0) return undefined;
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `bosun withholds ${list} from the tools' environment (secrets stay out of the session)`;
}

/** First line of a command, whitespace collapsed, at most ~60 characters. */
function shorten(command: string, max = 60): string {
  const lines = command.trim().split("\n");
  let text = (lines[0] ?? "").replace(/\s+/g, " ");
  if (lines.length > 1) text += " …";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
