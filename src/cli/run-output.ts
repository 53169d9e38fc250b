import type { BosunError } from "../errors.js";
import { goalLine } from "../loop/goal-line.js";
import type { DelegateEvent, RunEvent, TurnOutcome } from "../loop/turn.js";
import type { UsageSummary } from "../model/session-usage.js";
import { approvalAdvice } from "../permission/gate/approval.js";
import { doneFields, endedAs, STREAM_VERSION, streamShape } from "../runtime/stream-event.js";
import { printableAnswer, printableLine, printableText } from "../util/printable.js";
import { progressShown } from "./progress-line.js";

/** What the `session` event says: the session the run opened and what it runs with. */
export interface RunStart {
  session: string;
  /** How it was opened (seat session.target), and for a fork the session it copies. */
  opened: { mode: "new" | "continue" | "resume" | "fork"; parent?: string };
  model: string;
  agent: string;
  mode: string;
  cwd: string;
  tools: string[];
  maxSteps: number;
  version: string;
}

/** How the run ended, besides its outcome: the session, the exit code, this run's totals. */
export interface RunEnd {
  session: string;
  exitCode: number;
  /** Every model request of the run (steps, title, summaries, judge); undefined when unreadable. */
  usage?: UsageSummary;
}

/**
 * How a run shows itself. Text: the assistant's words on stdout, one line per tool call and
 * result on stderr, a running call's progress there too (bounded: progress-line.ts), errors on
 * stderr. JSON: one event per line on stdout, for scripts — `session`
 * first, then `text`, `tool_call`, `tool_result`, `decision`, `usage`, `error`, and `done` last
 * (schema/run-stream.v1.json).
 */
export interface RunPrinter {
  /** The session is open: said before any event of the run. */
  start(info: RunStart): void;
  event(event: RunEvent): void;
  done(outcome: TurnOutcome, end: RunEnd): void;
  /** The run stopped on an error bosun reports itself (usage, config, the store); the caller throws it on. */
  failed(error: BosunError): void;
}

export function textPrinter(): RunPrinter {
  let midLine = false;
  // A call's progress on stderr, bounded; wiped (at a terminal) before anything else is written.
  const progress = progressShown({
    write: (text) => process.stderr.write(text),
    tty: process.stderr.isTTY === true,
    ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
  });
  const endLine = () => {
    progress.clear();
    if (midLine) process.stdout.write("\n");
    midLine = false;
  };
  return {
    start() {
      // Text mode says which session at the end, with how to read its ledger.
    },
    failed() {
      // The error reaches stderr as every command's does (main.ts).
    },
    event(event) {
      switch (event.type) {
        case "text":
          progress.clear();
          // The model's words (and what it quotes from files) never drive the terminal.
          process.stdout.write(printableAnswer(event.text));
          midLine = !event.text.endsWith("\n");
          break;
        case "tool_call":
          endLine();
          process.stderr.write(`→ ${printableLine(event.name)} ${preview(event.input)}\n`);
          break;
        case "tool_progress":
          progress.show(event);
          break;
        case "tool_result":
          progress.clear();
          progress.done(event.id);
          process.stderr.write(`  ${event.isError ? "✗" : "✓"} ${printableLine(event.summary)}\n`);
          break;
        case "error":
          endLine();
          process.stderr.write(`bosun: ${printableText(event.message)}\n`);
          break;
        case "delegate":
          endLine();
          delegateLine(event);
          break;
        case "decision": {
          // A goal check says the turn goes on, or why it ends.
          const goal = goalLine(event.decision);
          if (goal) {
            endLine();
            process.stderr.write(`◎ ${printableLine(goal)}\n`);
          }
          // The ledger is for `bosun why`; in text mode only refusals (and goal checks) are worth a line.
          // Only when nobody could be asked: a person who said no needs no advice about flags.
          if (
            event.decision.seat === "call.approval" &&
            event.decision.answer === "deny" &&
            event.decision.holder === "code"
          ) {
            progress.clear();
            process.stderr.write(
              `  ! ${printableLine(event.decision.reasons[0]?.detail ?? "denied")}: ${approvalAdvice(event.decision.reasons)}\n`,
            );
          }
          break;
        }
      }
    },
    done(outcome, { session }) {
      endLine();
      const denied = outcome.denied > 0 ? ` · ${outcome.denied} call(s) denied` : "";
      process.stderr.write(
        `[${endedAs(outcome)}${denied} · ${outcome.steps} step(s) · session ${session} · bosun why ${session.slice(0, 10)}]\n`,
      );
    },
  };
}

/** A delegate's progress on stderr: its start, its calls and refusals, its end (its text stays in its own session). */
function delegateLine(event: DelegateEvent, depth = 1): void {
  const pad = "  ".repeat(depth);
  const who = printableLine(`${event.agent}${event.description ? ` (${event.description})` : ""}`);
  const agent = printableLine(event.agent);
  if (event.state === "waiting") process.stderr.write(`${pad}↳ ${who} waits for a free slot (delegate.max_parallel)\n`);
  else if (event.state === "running") process.stderr.write(`${pad}↳ ${who} started · task ${event.task_id}\n`);
  else if (event.state !== "event") process.stderr.write(`${pad}↳ ${who} ${event.state}\n`);
  const inner = event.event;
  if (!inner) return;
  if (inner.type === "delegate") delegateLine(inner, depth + 1);
  else if (inner.type === "tool_call")
    process.stderr.write(`${pad}  [${agent}] → ${printableLine(inner.name)} ${preview(inner.input)}\n`);
  else if (inner.type === "tool_result")
    process.stderr.write(`${pad}  [${agent}] ${inner.isError ? "✗" : "✓"} ${printableLine(inner.summary)}\n`);
  else if (inner.type === "error") process.stderr.write(`${pad}  [${agent}] error: ${printableLine(inner.message)}\n`);
  else if (
    inner.type === "decision" &&
    inner.decision.seat === "call.approval" &&
    inner.decision.answer === "deny" &&
    inner.decision.holder === "code"
  )
    process.stderr.write(`${pad}  [${agent}] ! ${printableLine(inner.decision.reasons[0]?.detail ?? "denied")}\n`);
}

export interface JsonPrinterOptions {
  /** False: decision events are left out of the stream (`--no-decisions`); the ledger still has them. */
  decisions?: boolean;
  /** Where lines go (stdout unless given). */
  write?: (line: string) => void;
  /** The clock for `done.durationMs`. */
  now?: () => number;
}

/**
 * One JSON object per line, each with `v` (the stream's version), `seq` (1, 2, 3… on this
 * stream) and `type`, and once the session is open its id as `session`. Events that come before
 * the session is known (the set-up decisions) wait until the `session` event has been written,
 * so it is always first; a run that fails before its session opens writes only `error` and `done`.
 */
export function jsonPrinter(options: JsonPrinterOptions = {}): RunPrinter {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const now = options.now ?? Date.now;
  const began = now();
  let seq = 0;
  let session: string | undefined;
  let waiting: RunEvent[] | undefined = [];
  const line = (type: string, fields: Record<string, unknown>) => {
    seq++;
    write(`${JSON.stringify({ v: STREAM_VERSION, seq, type, ...(session ? { session } : {}), ...fields })}\n`);
  };
  const show = (event: RunEvent) => {
    const shaped = streamShape(event, { decisions: options.decisions !== false });
    if (shaped) line(shaped.type, shaped.fields);
  };
  const durationMs = () => Math.max(0, Math.round(now() - began));
  return {
    start(info) {
      session = info.session;
      line("session", {
        opened: info.opened.mode,
        parent: info.opened.parent ?? null,
        model: info.model,
        agent: info.agent,
        mode: info.mode,
        cwd: info.cwd,
        tools: info.tools,
        maxSteps: info.maxSteps,
        version: info.version,
      });
      const held = waiting ?? [];
      waiting = undefined;
      for (const event of held) show(event);
    },
    event(event) {
      if (waiting) waiting.push(event);
      else show(event);
    },
    done(outcome, end) {
      line("done", doneFields(outcome, { exitCode: end.exitCode, durationMs: durationMs(), usage: end.usage }));
    },
    failed(error) {
      // What waited for a session that never opened is left out: `bosun why` has what was recorded.
      waiting = undefined;
      line("error", { message: error.message });
      line("done", { status: "error", exitCode: error.exitCode, message: error.message, durationMs: durationMs() });
    },
  };
}

function preview(input: unknown): string {
  const text = typeof input === "string" ? input : JSON.stringify(input);
  // A string input is the model's (or an MCP server's) as it came: shown as text, never run.
  return printableLine(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}
