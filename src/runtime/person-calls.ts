import { randomUUID } from "node:crypto";
import type { LoadedConfig } from "../config/load.js";
import type { Decision, RecordedDecision } from "../contracts/decisions.js";
import type { Tool, ToolContext } from "../contracts/tools.js";
import type { SessionStore } from "../store/session-store.js";
import type { Runtime } from "./open.js";
import type { SessionGate } from "./session-gate.js";

/** What a session's own commands run through: its journal, its gate, its shell tool, where long output goes. */
export interface PersonCallHost {
  store: SessionStore;
  config: LoadedConfig;
  sessionId: string;
  gate: SessionGate;
  record: (decision: Decision) => void;
  tools: () => readonly Tool[];
  outputPath: string;
  toolContext: Omit<ToolContext, "callId" | "signal">;
  /** Told of each decision the pipeline records (the face shows it). */
  onDecision: (decision: RecordedDecision) => void;
}

/**
 * The person's commands (a `!cmd`, a custom command's spans) and a recipe's checks as calls of a
 * session, through the pipeline — a top-level session's, or a delegate's (a sub-recipe's checks,
 * judged by the delegate's own narrower gate).
 */
export function personCalls(host: PersonCallHost): Pick<Runtime, "runCall" | "runSpan"> {
  const { store, config, sessionId, gate, record, toolContext } = host;
  const shell = () => host.tools().find((tool) => tool.name === "shell");
  /** A person's command through the call pipeline, judged (a repository's span) with this command's person and signal. */
  const runCall: Runtime["runCall"] = async (call, io) => {
    const { runPersonCall } = await import("../calls/person.js");
    const { sessionRecorder } = await import("../calls/recorder.js");
    const { outputBounds } = await import("../calls/bound.js");
    return runPersonCall(call, {
      shell: shell(),
      gate: gate.forTurn({ ...(io.prompt ? { prompt: io.prompt } : {}), signal: io.signal, record }),
      recorder: sessionRecorder(store, sessionId, (event) => {
        if (event.type === "decision") host.onDecision(event.decision);
      }),
      bounds: outputBounds(config, host.outputPath),
      signal: io.signal,
    });
  };
  const runSpan: Runtime["runSpan"] = async (command, prompt, signal) => {
    const spanInput = { command };
    // Unlike any model call's id, and any other span's: its write-ahead record is found by it.
    const id = `span-${randomUUID().slice(0, 8)}`;
    const outcome = await runCall(
      {
        id,
        command,
        repository: true,
        execute: (confine) =>
          (shell() as Tool).execute(spanInput, { ...toolContext, signal, callId: id, ...(confine ? { confine } : {}) }),
      },
      { prompt, signal },
    );
    if (!outcome.ran) return { output: "cancelled" in outcome ? "" : `[not run: ${outcome.summary}]`, exitCode: null };
    const exit = outcome.result.metadata?.exitCode;
    return {
      output: outcome.result.output,
      exitCode: typeof exit === "number" ? exit : outcome.result.isError ? 1 : 0,
    };
  };
  return { runCall, runSpan };
}
