import { type ChildProcess, spawn } from "node:child_process";
import type { Decision, Reason } from "../contracts/decisions.js";
import { toolEnvironment } from "../util/withheld-env.js";
import type { SpanRunner } from "./custom-commands.js";

/**
 * `!cmd` at the prompt (seat `input.command`, holder person): the person runs a shell command;
 * its output goes into the conversation for the model's next turn. Also runs the `` !`cmd` ``
 * spans of custom command templates (see `spanRunner`).
 */

/** How long a `!cmd` may run before its process group is killed. */
export const BANG_TIMEOUT_MS = 120_000;
/** How much output is kept: the last this many bytes of stdout and stderr together. */
export const BANG_OUTPUT_BYTES = 50_000;
/** How long the group gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1000;
/** How long to wait for the output pipe to close once bash has exited. */
const DRAIN_MS = 250;

export interface BangOptions {
  cwd: string;
  signal: AbortSignal;
  /** The command's environment; default the tools' environment (bosun's keys and credential-like names withheld). */
  env?: NodeJS.ProcessEnv;
  /** Default BANG_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Default BANG_OUTPUT_BYTES. */
  maxOutputBytes?: number;
}

export interface BangResult {
  /** stdout and stderr together, in the order they arrived; the last `maxOutputBytes` of it. */
  output: string;
  /** null when a signal ended it or it could not start. */
  exitCode: number | null;
  /** The signal that ended bash. */
  signal?: string;
  /** It overran its timeout and its group was killed. */
  timedOut?: boolean;
  /** The signal passed to runBang fired and its group was killed. */
  cancelled?: boolean;
  /** Bytes cut from the start of the output. */
  droppedBytes?: number;
  /** Why bash could not start. */
  error?: string;
}

/**
 * Runs `command` with `bash -c` in `cwd`, in its own process group, stdin closed, capturing
 * stdout and stderr together (the last `maxOutputBytes` kept). A timeout or an abort kills the
 * whole group (SIGTERM, then SIGKILL). When bash exits but something it started in the
 * background still holds the output pipe, that group is killed too, so the prompt never waits
 * for it. Never rejects.
 */
export function runBang(command: string, options: BangOptions): Promise<BangResult> {
  const timeoutMs = options.timeoutMs ?? BANG_TIMEOUT_MS;
  const limit = options.maxOutputBytes ?? BANG_OUTPUT_BYTES;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    const collect = (chunk: Buffer) => {
      chunks.push(chunk);
      kept += chunk.length;
      total += chunk.length;
      while (chunks.length > 1 && kept - (chunks[0] as Buffer).length >= limit)
        kept -= (chunks.shift() as Buffer).length;
    };
    const output = (): { output: string; droppedBytes?: number } => {
      let bytes = Buffer.concat(chunks);
      if (bytes.length > limit) {
        let start = bytes.length - limit;
        // Do not start inside a UTF-8 character.
        while (start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++;
        bytes = bytes.subarray(start);
      }
      const dropped = total - bytes.length;
      return dropped > 0
        ? { output: bytes.toString("utf8"), droppedBytes: dropped }
        : { output: bytes.toString("utf8") };
    };

    if (options.signal.aborted) {
      resolve({ output: "", exitCode: null, cancelled: true });
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn("bash", ["-c", command], {
        cwd: options.cwd,
        env: options.env ?? toolEnvironment(),
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (error) {
      resolve({ output: "", exitCode: null, error: `bash could not start: ${describe(error)}` });
      return;
    }
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);

    let settled = false;
    let timedOut = false;
    let cancelled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const pgid = child.pid;

    const killGroup = (signal: NodeJS.Signals) => {
      if (pgid === undefined) return;
      try {
        process.kill(-pgid, signal);
      } catch {
        // The group is gone already.
      }
    };
    const terminate = () => {
      killGroup("SIGTERM");
      killTimer ??= setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
      killTimer.unref();
    };
    const finish = (result: Omit<BangResult, "output" | "droppedBytes">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      options.signal.removeEventListener("abort", onAbort);
      const out = output();
      const full: BangResult = { ...out, ...result };
      if (timedOut) full.timedOut = true;
      if (cancelled) full.cancelled = true;
      resolve(full);
    };
    const ended = () => {
      const code = exit?.code ?? null;
      const signal = exit?.signal ?? undefined;
      finish(signal ? { exitCode: code, signal } : { exitCode: code });
    };

    const timer = setTimeout(() => {
      timedOut = true;
      terminate();
    }, timeoutMs);
    const onAbort = () => {
      cancelled = true;
      terminate();
    };
    options.signal.addEventListener("abort", onAbort, { once: true });

    child.on("error", (error) => {
      finish({ exitCode: null, error: `bash could not start: ${describe(error)}` });
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // Whatever bash left running that still holds the pipe: a short grace, then its group goes.
      drainTimer = setTimeout(() => {
        killGroup("SIGKILL");
        ended();
      }, DRAIN_MS);
    });
    child.on("close", () => {
      if (exit) ended();
    });
  });
}

/** A runner for custom command spans: each span runs like a `!cmd` (its own group, bounded, timed out). */
export function spanRunner(options: BangOptions): SpanRunner {
  return async (command) => {
    const result = await runBang(command, options);
    return { output: result.error ?? result.output, exitCode: result.exitCode };
  };
}

/** How the run ended, in a few words: "exit 0", "killed by SIGTERM after the 120 s timeout", ... */
export function bangOutcome(result: BangResult): string {
  if (result.error) return result.error;
  if (result.timedOut) return `killed after the timeout${result.signal ? ` (${result.signal})` : ""}`;
  if (result.cancelled) return `cancelled${result.signal ? ` (${result.signal})` : ""}`;
  if (result.signal) return `killed by ${result.signal}`;
  return result.exitCode === null ? "no exit code" : `exit ${result.exitCode}`;
}

/** The text added to the conversation for the model's next turn. */
export function bangMessage(command: string, result: BangResult): string {
  // A command that would break the inline code span is shown in a fenced block.
  const lines =
    command.includes("\n") || command.includes("`")
      ? [`The user ran this in the shell (${bangOutcome(result)}):`, "~~~sh", command, "~~~", "Output:"]
      : [`The user ran \`${command}\` in the shell (${bangOutcome(result)}):`];
  if (result.droppedBytes) lines.push(`[the first ${result.droppedBytes} bytes of output were cut; the rest follows]`);
  const output = result.output.replace(/(\r?\n)+$/, "");
  lines.push(output === "" ? "(no output)" : output);
  return lines.join("\n");
}

/** The `input.command` decision of a `!cmd` that ran: the person's, with its exit code. */
export function bangDecision(
  command: string,
  result: BangResult,
): Decision<{ kind: "bang"; command: string; exitCode: number | null }> {
  const reasons: Reason[] = [
    { rule: "shell command typed by the person", detail: `!${command}`, decisive: true },
    { rule: "ran", detail: bangOutcome(result) },
  ];
  if (result.droppedBytes) {
    reasons.push({ rule: "output bounded", detail: `the first ${result.droppedBytes} bytes were cut` });
  }
  return {
    seat: "input.command",
    holder: "person",
    answer: { kind: "bang", command, exitCode: result.exitCode },
    reasons,
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
