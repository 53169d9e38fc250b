import type { z } from "zod";

/**
 * A built-in tool. Its name and argument names are public contract: permission rules, hooks,
 * recipes and scripted tests refer to them. Tools report failure as a result the model can
 * act on (`isError`), and throw only for bugs.
 */
export interface Tool<Input = Record<string, unknown>> {
  name: string;
  /** What the model reads: short and exact. */
  description: string;
  /** Validates arguments; its JSON Schema is what the model is shown. */
  schema: z.ZodType<Input>;
  /** The default permission class: reads run freely; edits and shell ask by default. */
  kind: "read" | "edit" | "shell";
  execute(input: Input, context: ToolContext): Promise<ToolResult>;
}

export interface ToolResult {
  /** Text for the model. The loop bounds it (see bound.ts); tools need not. */
  output: string;
  isError?: boolean;
  /** One line for people: "read src/a.ts (120 lines)", "shell `npm test` exited 1". */
  summary: string;
  /** Facts for the ledger and JSON events: exit code, lines changed, ... */
  metadata?: Record<string, unknown>;
  /** Which end of a long output matters most when it must be cut ("tail" for shell). */
  keep?: "head" | "tail";
}

export interface ToolContext {
  /** The workspace: relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  callId: string;
  /** What this session has read, for edit's "changed on disk since you read it" check. */
  files: FileTracker;
  /** Background shell jobs of this session. */
  jobs: BackgroundJobs;
  limits: ToolLimits;
}

export interface ToolLimits {
  /** Shell default and maximum timeout, in milliseconds. */
  shellTimeoutMs: number;
  shellMaxTimeoutMs: number;
  /** Result counts for grep/glob/list before a "more results" note. */
  maxResults: number;
}

/** Remembers the state of each file when the agent last read or wrote it. */
export interface FileTracker {
  /** Record that the agent has seen `path` as it is now on disk. */
  seen(path: string): void;
  /** Undefined when the file is as the agent last saw it; else why it is not (never read, changed). */
  staleReason(path: string): string | undefined;
}

export interface BackgroundJob {
  id: string;
  command: string;
  done: boolean;
  exitCode?: number | null;
  output: string;
}

export interface BackgroundJobs {
  start(command: string, cwd: string): BackgroundJob;
  /** Jobs that finished since the last call: the loop tells the model about them in the next step. */
  takeFinished(): BackgroundJob[];
  /** Kills every running job (process groups), e.g. on cancel. */
  killAll(): void;
}
