import { randomUUID } from "node:crypto";
import type { PersonCall, PersonOutcome } from "../calls/person.js";
import type { Decision, Reason } from "../contracts/decisions.js";
import type { ToolResult } from "../contracts/tools.js";
import { spawnShell } from "../tools/process.js";
import type { SpanRunner } from "./custom-commands.js";

/**
 * `!cmd` at the prompt (seat `input.command`, holder person): the person runs a shell command;
 * its output goes into the conversation for the model's next turn. Also runs the `` !`cmd` ``
 * spans of custom command templates (see `spanRunner`).
 */

/** How long a `!cmd` may run before its process group is killed. */
export const BANG_TIMEOUT_MS = 120_000;

export interface BangOptions {
  cwd: string;
  signal: AbortSignal;
  /** Default BANG_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Keep only the last this many bytes of output (the call pipeline bounds it for the model in any case). Default: all that was kept in memory. */
  maxOutputBytes?: number;
}

export interface BangResult {
  /** stdout and stderr together, in the order they were written; its end, when it was cut. */
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
 * Runs `command` as a shell process of tools/process.ts (`bash -c` in `cwd`, its own process
 * group, stdin closed, stdout and stderr merged, the tools' environment). A timeout or an abort
 * kills the whole group (SIGTERM, then SIGKILL); what bash leaves running in its group when it
 * exits is killed too, so the prompt never waits for it. Never rejects.
 */
export async function runBang(command: string, options: BangOptions): Promise<BangResult> {
  if (options.signal.aborted) return { output: "", exitCode: null, cancelled: true };
  const shell = spawnShell(command, { cwd: options.cwd });
  let timedOut = false;
  let cancelled = false;
  const timer = setTimeout(() => {
    timedOut = true;
    shell.terminate();
  }, options.timeoutMs ?? BANG_TIMEOUT_MS);
  const onAbort = () => {
    cancelled = true;
    shell.terminate();
  };
  options.signal.addEventListener("abort", onAbort, { once: true });
  const end = await shell.finished;
  clearTimeout(timer);
  options.signal.removeEventListener("abort", onAbort);
  const kept = keptOutput(shell.output.kept(), shell.output.dropped, options.maxOutputBytes);
  if (end.error !== undefined) return { ...kept, exitCode: null, error: `bash could not start (${end.error})` };
  return {
    ...kept,
    exitCode: end.exitCode,
    ...(end.signal ? { signal: end.signal } : {}),
    ...(timedOut ? { timedOut: true } : {}),
    ...(cancelled ? { cancelled: true } : {}),
  };
}

/**
 * The output's last `maxBytes` bytes, never starting inside a character, and how many bytes
 * were cut (those the process buffer dropped already are counted as characters).
 */
function keptOutput(text: string, droppedChars: number, maxBytes?: number): { output: string; droppedBytes?: number } {
  const bytes = Buffer.from(text, "utf8");
  let start = maxBytes !== undefined && bytes.length > maxBytes ? bytes.length - maxBytes : 0;
  // Do not start inside a UTF-8 character.
  while (start > 0 && start < bytes.length && ((bytes[start] as number) & 0xc0) === 0x80) start++;
  const dropped = droppedChars + start;
  const output = start > 0 ? bytes.subarray(start).toString("utf8") : text;
  return dropped > 0 ? { output, droppedBytes: dropped } : { output };
}

/** A `!cmd` as the person's call: run by runBang, its output the call's result. */
export function bangCall(command: string, options: BangOptions): PersonCall {
  return {
    id: `bang-${randomUUID().slice(0, 8)}`,
    command,
    execute: async () => asResult(command, await runBang(command, options)),
    // The person's command and its output join the conversation for the model's next turn.
    settle: (result) => {
      const ran = fromResult(result);
      return { decision: bangDecision(command, ran), notice: { text: bangMessage(command, ran) } };
    },
  };
}

/**
 * A runner for the spans of the person's own custom commands: each span runs like a `!cmd`
 * (its own group, timed out), as a call of theirs through `run` (the session's call pipeline).
 */
export function spanRunner(options: BangOptions, run: (call: PersonCall) => Promise<PersonOutcome>): SpanRunner {
  return async (command) =>
    shownOf(
      await run({
        id: `span-${randomUUID().slice(0, 8)}`,
        command,
        execute: async () => asResult(command, await runBang(command, options)),
      }),
    );
}

/** What a person sees of their command's run: its output as recorded (bounded) and its exit code. */
export function shownOf(outcome: PersonOutcome): { output: string; exitCode: number | null } {
  if (!outcome.ran) return { output: "cancelled" in outcome ? "" : outcome.output, exitCode: null };
  const ran = fromResult(outcome.result);
  return { output: ran.output, exitCode: ran.exitCode };
}

/**
 * A bang's run as a call's result: the output, and how it ended as metadata. An abort that stopped
 * it is `aborted` there, not `cancelled`: the person's command keeps its result, and what it
 * printed before it was stopped joins the conversation all the same.
 */
function asResult(command: string, result: BangResult): ToolResult {
  const { output, error, cancelled, ...how } = result;
  return {
    output: error ?? output,
    isError: result.exitCode !== 0,
    summary: `!${command.split("\n")[0]} (${bangOutcome(result)})`,
    keep: "tail",
    metadata: { ...how, ...(cancelled ? { aborted: true } : {}), ...(error !== undefined ? { error } : {}) },
  };
}

/** The run back from the call's result as recorded: its output bounded by the pipeline. */
function fromResult(result: ToolResult): BangResult {
  const { aborted, exitCode, error, ...how } = (result.metadata ?? {}) as Omit<BangResult, "output" | "exitCode"> & {
    aborted?: boolean;
    exitCode?: unknown;
  };
  return {
    ...how,
    output: error !== undefined ? "" : result.output,
    exitCode: typeof exitCode === "number" ? exitCode : null,
    ...(aborted ? { cancelled: true } : {}),
    ...(error !== undefined ? { error } : {}),
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
