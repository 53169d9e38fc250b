import { z } from "zod";
import { spawnShell } from "./process.js";
import type { Tool, ToolResult } from "./types.js";

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
  async execute(input, ctx): Promise<ToolResult> {
    const label = `shell \`${shorten(input.command)}\``;

    if (input.background) {
      const job = ctx.jobs.start(input.command, ctx.cwd);
      const notes = [`Started background job ${job.id}. Its completion will be reported in a later step.`];
      if (input.timeout_ms !== undefined) notes.push("timeout_ms does not apply to background jobs.");
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

    const proc = spawnShell(input.command, { cwd: ctx.cwd });
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

    const metadata = {
      exitCode: end.exitCode,
      signal: end.signal,
      timedOut,
      cancelled,
      durationMs: end.durationMs,
    };
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

    let text = proc.output.text();
    if (text === "") text = "(no output)\n";
    else if (!text.endsWith("\n")) text += "\n";
    const tail = [...notes.map((note) => `note: ${note}`), status].join("\n");

    return {
      output: `${text}${tail}`,
      isError: cancelled || timedOut || end.exitCode !== 0,
      summary: `${label} → ${short} (${seconds})`,
      metadata,
      keep: "tail",
    };
  },
};

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
