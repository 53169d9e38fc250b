import { applyCheckpoint } from "../compaction/checkpoint.js";
import { type EnvironmentWatch, renderEnvironment } from "../context/environment.js";
import {
  type InstructionFile,
  type InstructionSkip,
  type NestedState,
  nestedInstructions,
} from "../context/instructions.js";
import { systemPrompt } from "../context/system-prompt.js";
import { EV, type Notice } from "../session/events.js";
import { isEvent, sqliteJournal } from "../session/journal.js";
import type { SessionStore, StoredEvent } from "../store/session-store.js";
import type { TurnRecorder } from "./recorder.js";

/** What a run settles once about the context: the agent's prompt, skills and instruction files. */
export interface RunContext {
  cwd: string;
  /** The agent's name: its config `reasoning` outranks its model's (seat model.options). */
  agent?: string;
  agentPrompt?: string;
  readOnly: boolean;
  /** renderSkills(...) of the skills offered. */
  skills: string;
  /** The instruction files loaded at the start, in order. */
  instructions: InstructionFile[];
  /** Subfolders' AGENTS.md still to add when the model reads there; absent outside a repository. */
  nested?: NestedState;
  /** renderInstructions(...): how a file is shown to the model. */
  render: (files: readonly InstructionFile[]) => string;
}

/** The system prompt of a step: the tools actually sent, the skills, the instructions. */
export function stepSystem(context: RunContext, toolNames: readonly string[]): string {
  return systemPrompt({
    tools: toolNames,
    readOnly: context.readOnly,
    ...(context.agentPrompt ? { agentPrompt: context.agentPrompt } : {}),
    skills: context.skills,
    instructions: context.render(context.instructions),
  });
}

/**
 * The environment, re-read before each step when it may have changed (watchEnvironment), and told to the model only when it changed since
 * the last time this session told it (a notice in the log, so a resumed session knows too).
 * Returns the notice to append, or undefined when the model already has this one. `events` are
 * the session's events.
 */
export async function environmentNotice(
  events: readonly StoredEvent[],
  where: EnvironmentWatch,
): Promise<Notice | undefined> {
  const text = renderEnvironment(await where.read());
  // What the model still reads: an environment summarised away by a compaction is told again.
  const last = applyCheckpoint(events)
    .filter((event) => isEvent(event, EV.notice) && event.data.kind === "environment")
    .at(-1);
  if (last && isEvent(last, EV.notice) && last.data.text === text) return undefined;
  return { text, kind: "environment" };
}

/**
 * After a read, a subfolder's own AGENTS.md (or CLAUDE.md) not yet loaded is added to the
 * conversation, once — if the read rules allow it outright (it is the repository's): returned,
 * with the ones skipped and why, so the caller records them (seat context.instructions).
 */
export function noteNestedInstructions(
  recorder: Pick<TurnRecorder, "notice">,
  context: RunContext,
  readPath: string,
): { added: InstructionFile[]; skipped: InstructionSkip[] } {
  if (!context.nested) return { added: [], skipped: [] };
  // This read's skips only: the folders looked in (state.loaded) are shared, so each is judged once.
  const skipped: InstructionSkip[] = [];
  const added = nestedInstructions(readPath, { ...context.nested, skipped });
  for (const file of added) {
    recorder.notice({ text: context.render([file]), kind: "instructions", path: file.path });
  }
  return { added, skipped };
}

/** Instruction files this session was already given on a read (a resumed session is not given them twice). */
export function nestedAlreadyAdded(store: SessionStore, sessionId: string): string[] {
  return sqliteJournal(store, sessionId)
    .events(EV.notice)
    .flatMap(({ data }) => (data.kind === "instructions" && data.path !== undefined ? [data.path] : []));
}
