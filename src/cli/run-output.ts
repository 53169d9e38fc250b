import type { RunEvent, TurnOutcome } from "../loop/turn.js";
import { approvalAdvice } from "../permission/approval.js";

/**
 * How a run shows itself. Text: the assistant's words on stdout, one line per tool call and
 * result on stderr, errors on stderr. JSON: one event per line on stdout — `text`, `tool_call`,
 * `tool_result`, `decision`, `error`, `done` — for scripts.
 */
export interface RunPrinter {
  event(event: RunEvent): void;
  done(outcome: TurnOutcome, session: string, exitCode: number): void;
}

export function textPrinter(): RunPrinter {
  let midLine = false;
  const endLine = () => {
    if (midLine) process.stdout.write("\n");
    midLine = false;
  };
  return {
    event(event) {
      switch (event.type) {
        case "text":
          process.stdout.write(event.text);
          midLine = !event.text.endsWith("\n");
          break;
        case "tool_call":
          endLine();
          process.stderr.write(`→ ${event.name} ${preview(event.input)}\n`);
          break;
        case "tool_result":
          process.stderr.write(`  ${event.isError ? "✗" : "✓"} ${event.summary}\n`);
          break;
        case "error":
          endLine();
          process.stderr.write(`bosun: ${event.message}\n`);
          break;
        case "decision":
          // The ledger is for `bosun why`; in text mode only refusals are worth a line.
          // Only when nobody could be asked: a person who said no needs no advice about flags.
          if (
            event.decision.seat === "call.approval" &&
            event.decision.answer === "deny" &&
            event.decision.holder === "code"
          ) {
            process.stderr.write(
              `  ! ${event.decision.reasons[0]?.detail ?? "denied"}: ${approvalAdvice(event.decision.reasons)}\n`,
            );
          }
          break;
      }
    },
    done(outcome, session) {
      endLine();
      const denied = outcome.denied > 0 ? ` · ${outcome.denied} call(s) denied` : "";
      process.stderr.write(
        `[${endedAs(outcome)}${denied} · ${outcome.steps} step(s) · session ${session} · bosun why ${session.slice(0, 10)}]\n`,
      );
    },
  };
}

export function jsonPrinter(): RunPrinter {
  const line = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
  return {
    event(event) {
      // The wait is the interactive session's display; scripts get the decisions and the error.
      if (event.type === "model_wait") return;
      if (event.type === "decision") line({ type: "decision", ...event.decision });
      else line(event);
    },
    done(outcome, session, exitCode) {
      // The event keeps its name (scripts wait for it); its status says how the run ended.
      line({ type: "done", status: endedAs(outcome), steps: outcome.steps, denied: outcome.denied, session, exitCode });
    },
  };
}

/**
 * How the run ended, as its last line and the `done` event's status say it: a turn the model
 * finished with a call denied is "denied" (exit 3), never "done"; a limit is "limit".
 */
export function endedAs(outcome: TurnOutcome): string {
  return outcome.status === "done" && outcome.denied > 0 ? "denied" : outcome.status;
}

function preview(input: unknown): string {
  const text = typeof input === "string" ? input : JSON.stringify(input);
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
