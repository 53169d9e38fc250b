import type { Confinement } from "../contracts/confinement.js";
import type { Decision } from "../contracts/decisions.js";
import type { CallDescription } from "../contracts/requests.js";
import type { Tool, ToolResult } from "../contracts/tools.js";
import type { GateDeps } from "../permission/gate/gate.js";
import type { Notice } from "../session/events.js";
import type { OutputBounds } from "./bound.js";
import { admitCall } from "./gate-call.js";
import type { CallRecorder } from "./recorder.js";
import { runAdmitted } from "./run.js";

/**
 * A shell command the person runs: `!cmd` at the prompt, or a `` !`cmd` `` span of a custom
 * command they typed. It is the person's call (their own command needs nobody's approval), and
 * it goes through the pipeline as a model's call does: on record before it runs, the post-tool
 * hooks after it, its output bounded, its outcome on record.
 */
export interface PersonCall {
  /** The call's id in the journal: unlike any model call's ("bang-…", "span-…"). */
  id: string;
  command: string;
  /** A span of a repository's command: judged by the gate like any shell call (the repository wrote it, not the person). */
  repository?: true;
  /** Runs the command, confined when the gate says so. */
  execute(confine?: Confinement): Promise<ToolResult>;
  /**
   * What the outcome adds to the session once recorded: the person's decision about it, and what
   * joins the conversation for the model's next turn. Given the result as recorded (bounded).
   */
  settle?(result: ToolResult): { decision?: Decision; notice?: Notice };
}

export interface PersonDeps {
  /**
   * The shell tool: it describes the command (what the gate and the write-ahead record judge), and
   * names it for hooks. Undefined when the session's agent has none (its `tools` leave it out).
   */
  shell: Tool | undefined;
  /** The session's gate, with this command's person, signal and recorder. */
  gate: GateDeps;
  recorder: CallRecorder;
  bounds: OutputBounds;
  signal: AbortSignal;
}

export type PersonOutcome =
  | { ran: true; result: ToolResult }
  | { ran: false; output: string; summary: string }
  | { ran: false; cancelled: true };

/** Step of a person's command: between turns, so none. */
const NO_STEP = 0;

/** Runs a person's command through the pipeline: gate (a repository's only), run, record. */
export async function runPersonCall(call: PersonCall, deps: PersonDeps): Promise<PersonOutcome> {
  const { shell, gate, recorder } = deps;
  // Nothing to judge or run it with (a repository's config may set the agent's tools): not run, said why.
  if (!shell) {
    const why = "the session's agent has no shell tool (its tools leave it out)";
    return { ran: false, output: `[not run: ${why}]`, summary: why };
  }
  const input = { command: call.command };
  let judged: CallDescription;
  let confine: Confinement | undefined;
  if (call.repository) {
    const verdict = await admitCall({ id: call.id, tool: shell, input, repository: true }, NO_STEP, gate);
    if (!verdict.run) {
      recorder.finished({
        id: call.id,
        name: shell.name,
        output: verdict.refused.output,
        isError: true,
        summary: verdict.refused.summary,
      });
      return { ran: false, output: verdict.refused.output, summary: verdict.refused.summary };
    }
    judged = verdict.judged.judged;
    confine = verdict.judged.confine;
  } else judged = await describe(shell, input, gate);
  const ran = await runAdmitted({ id: call.id, tool: shell, input, judged }, () => call.execute(confine), {
    recorder,
    gate,
    bounds: deps.bounds,
    signal: deps.signal,
    step: NO_STEP,
  });
  if (ran.cancelled) return { ran: false, cancelled: true };
  const settled = call.settle?.(ran.result);
  if (settled?.decision) recorder.decision(settled.decision);
  if (settled?.notice) recorder.notice(settled.notice);
  return { ran: true, result: ran.result };
}

/** What the command would do, for its write-ahead record and its hooks: one that cannot be described may change anything. */
async function describe(shell: Tool, input: { command: string }, gate: GateDeps): Promise<CallDescription> {
  try {
    return await shell.requests(input, { cwd: gate.authority.cwd, workspace: gate.authority.workspace });
  } catch (error) {
    return { requests: [], problem: `${shell.name} could not describe the command: ${(error as Error).message}` };
  }
}
