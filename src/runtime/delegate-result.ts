import type { TaskInput } from "../agents/task.js";
import type { ToolResult } from "../contracts/tools.js";
import type { TurnOutcome } from "../loop/turn.js";
import type { UsageSummary } from "../model/session-usage.js";

/** What a delegate's result is built from: its agent and session. */
interface Ran {
  agent: { name: string };
  session: { id: string };
}

const WHY: Record<Exclude<TurnOutcome["status"], "done">, string> = {
  limit: "stopped at its step budget before it finished",
  repeat: "was stopped for repeating the same call",
  failed: "failed",
  cancelled: "was cancelled",
  blocked: "had its prompt blocked by a hook",
};

/**
 * A delegate's end as the parent's model reads it. Only a delegate that finished gives a plain
 * result; one that failed, hit a limit, was cancelled or was denied everything it tried comes
 * back as an error result that says so — never as if its last words were the answer.
 */
export function delegateResult(
  ran: Ran,
  outcome: TurnOutcome,
  usage: UsageSummary | undefined,
  signal: AbortSignal,
  maxChars = 20_000,
): ToolResult {
  const id = ran.session.id;
  const text = cut(outcome.lastText?.trim() ?? "", maxChars);
  const metadata: Record<string, unknown> = {
    task_id: id,
    agent: ran.agent.name,
    status: outcome.status,
    steps: outcome.steps,
    denied: outcome.denied,
    ...(usage ? { usage: { ...usage } } : {}),
    ...(outcome.status === "cancelled" && signal.aborted ? { cancelled: true } : {}),
  };
  const footer = `\n\ntask_id: ${id}`;
  const deniedNote =
    outcome.denied > 0 ? `\n(${outcome.denied} of its calls were denied: it may not have done all it was asked.)` : "";
  if (outcome.status === "done" && text !== "") {
    return {
      output: `${text}${deniedNote}${footer}`,
      summary: `task ${ran.agent.name}: done in ${outcome.steps} step(s)${outcome.denied > 0 ? `, ${outcome.denied} denied` : ""}`,
      metadata,
    };
  }
  const why =
    outcome.status === "done"
      ? "ended without an answer"
      : `${WHY[outcome.status]}${outcome.message ? `: ${outcome.message}` : ""}`;
  const last = text !== "" ? `\nIts last text (not a finished answer):\n${text}` : "";
  const resume =
    outcome.status === "cancelled" ? "" : " Resume it with task_id to let it go on, or do the work yourself.";
  return {
    output: `The ${ran.agent.name} delegate ${why}.${deniedNote}${last}${footer}${resume ? `\n${resume.trim()}` : ""}`,
    isError: true,
    summary: `task ${ran.agent.name}: ${outcome.status}`,
    metadata,
  };
}

/** A task call that could not start a delegate: an error result the model can act on. */
export function delegateFailure(message: string, taskId?: string): ToolResult {
  return {
    output: `No delegate ran: ${message}`,
    isError: true,
    summary: "task: not started",
    ...(taskId ? { metadata: { task_id: taskId } } : {}),
  };
}

/** A background delegate's end, as the notice the parent's next step reads. */
export function noticeOf(ran: Ran, input: TaskInput, result: ToolResult): string {
  const what = input.description ? ` (${input.description})` : "";
  const status = result.isError ? "did not finish" : "finished";
  return `Background task ${ran.session.id}${what}, agent ${ran.agent.name}, ${status}:\n${result.output}`;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… ${text.length - max} more characters of the delegate's answer cut; its session holds the whole text]`;
}
