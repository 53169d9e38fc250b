import type { z } from "zod";
import type { Confinement } from "./confinement.js";
import type { Decision, Holder } from "./decisions.js";
import type { CallDescription, RequestContext } from "./requests.js";

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
  /** The JSON Schema to show the model instead of the one made from `schema` (an MCP server's own). */
  inputJsonSchema?: Record<string, unknown>;
  /**
   * Checks the (repaired) arguments against `inputJsonSchema` in place of `schema`, which then
   * only guides repair: an MCP server's schema is the authority on its arguments (seat call.validate).
   */
  validate?(value: unknown): { ok: true } | { ok: false; problems: string[] };
  /** Why no call of this tool can pass validation (a schema bosun cannot compile): it is not offered. */
  unusable?: string;
  /** What kind of tool it is, for people and summaries; permissions judge its requests, not this. */
  kind: "read" | "edit" | "shell" | "mcp" | "delegate" | "web";
  /**
   * Run by the model's provider, not by bosun (its own web search): sent as the provider's tool
   * where the model has one, and offered only when the rules allow its requests outright — a
   * call the provider makes is never put to anyone first. Its `execute` is never reached.
   */
  native?: "web_search";
  /** An MCP tool's one request, the same for every call: `mcp:<server>/<tool>`, and whether the server annotated it read-only. */
  mcp?: { resource: string; readOnly: boolean; annotations?: McpAnnotations };
  /**
   * What a call would do, as permission requests (`read:<path>`, `shell:<command>`, ...). Every
   * call is judged on these before it runs; a call that cannot be described is never allowed.
   */
  requests(input: Input, where: RequestContext): Promise<CallDescription>;
  /**
   * For the person asked to approve a call: what it would change (a diff for edits). `through`
   * is where the file tools' text comes from (the editor's buffers): the diff is of the text the
   * call will change, not the disk's when they differ.
   */
  preview?(
    input: Input,
    where: RequestContext,
    through?: Pick<ToolContext, "access" | "signal">,
  ): Promise<string | undefined>;
  execute(input: Input, context: ToolContext): Promise<ToolResult>;
  /**
   * Why this call would fail as things stand (an edit of a file the model has not read), so that
   * nobody is asked to approve a call bound to fail: the gate says this instead of asking. Cheap
   * (a stat at most); `execute` checks again, since files change between the two.
   */
  unready?(input: Input, context: Pick<ToolContext, "cwd" | "files" | "access">): string | undefined;
  /**
   * The file a call that succeeded showed the model whole (a read), from what it was judged to do:
   * the call pipeline reports it, so that instructions belonging to that file's folder can follow.
   */
  opened?(judged: CallDescription): string | undefined;
}

/** The tool set as it stands, and which version it is: MCP servers may change theirs while a session runs. */
export interface ToolVersion {
  version: number;
  tools: readonly Tool[];
}

/** What an MCP server said of a tool (its annotations): hints, kept as given. */
export interface McpAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolResult {
  /** Text for the model. The loop bounds it (see bound.ts); tools need not. */
  output: string;
  isError?: boolean;
  /** One line for people: "read src/a.ts (120 lines)", "shell `npm test` exited 1". */
  summary: string;
  /** For a person who expands the call: an edit's diff, a command's output and exit status. */
  detail?: string;
  /** Facts for the ledger and JSON events: exit code, lines changed, ... */
  metadata?: Record<string, unknown>;
  /** Which end of a long output matters most when it must be cut ("tail" for shell). */
  keep?: "head" | "tail";
  /** Pictures for the model (read of an image file): base64, sent only to models that take images. */
  images?: Array<{ path: string; mediaType: string; data: string }>;
}

export interface ToolContext {
  /** The workspace: relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  callId: string;
  /** What this session has read, for edit's "changed on disk since you read it" check. */
  files: FileTracker;
  /**
   * Where a file tool's text comes from and goes to when not the disk alone: an editor's buffers
   * (ACP fs). Only bytes: the gate has judged the path before a tool asks it anything.
   */
  access?: FileAccess;
  /** Background shell jobs of this session. */
  jobs: BackgroundJobs;
  limits: ToolLimits;
  /** Where a shell command's output beyond what its result holds is saved (under the data folder); unset, it is not saved. */
  output?: SavedOutputs;
  /**
   * What the gate judged this call would do (the loop sets it for every call it runs). A file
   * tool writes only where its `edit:` requests say: a path that leads elsewhere by the time it
   * runs (a link swapped in after the check) was not approved.
   */
  judged?: CallDescription;
  /** Set when this call must run confined (a shell command run because it was proven read-only). */
  confine?: Confinement;
  /**
   * Whether the rules let the model read a file without anyone being asked. A tool that shows
   * the contents of files it found itself (grep over a folder) leaves out the others: a read is
   * a read, however it is reached.
   */
  mayRead?: (absolutePath: string) => boolean;
  /** The workspace's files the rules protect (`.env`): a tool searching contents leaves them out, saying so. */
  protectedFiles?: () => Promise<string[]>;
  /**
   * Told how far a long call has come (an MCP server's progress notifications): shown to the
   * person as it goes, never to the model, never journaled (the result's metadata counts them).
   */
  progress?: (update: ToolProgress) => void;
  /** How a web tool asks the rules about what it meets while it runs (a redirect's host, a resolved address). */
  web?: WebReach;
}

/** The rules' answer for one `web:` resource, for a tool that meets it while running. */
export interface WebVerdict {
  effect: "allow" | "ask" | "deny";
  holder: Holder;
  /** An allow rule of the person's or config's names this resource exactly (no wildcard, not a built-in rule). */
  named: boolean;
  /** The rule that decided, as one line: `web:127.0.0.1 → allow (global /home/me/bosun.json)`. */
  reason: string;
}

export interface WebReach {
  /** The rules' answer for `web:<resource>` now (a host, or an IP address as written), the policy included. */
  judge(resource: string): WebVerdict;
  /** Puts a decision the tool made (seat web.address) on record, about this call. */
  record(decision: Decision): void;
}

/** How far a running call has come, as its tool said: `progress` of `total` (when known), and what it is doing. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
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
  /** Record that the agent has seen `path` as it is now on disk, or as `content` (an editor's buffer). */
  seen(path: string, content?: string): void;
  /**
   * Undefined when the file is as the agent last saw it; else why it is not (never read, changed).
   * `current`: the text as it now is where it was read (an editor's buffer) — compared by hash;
   * null: it is not at hand (a cheap check before the buffer is asked), only "never read" is said.
   */
  staleReason(path: string, current?: string | null): string | undefined;
}

/**
 * A file's text from somewhere other than the disk: the editor's (ACP fs/read_text_file and
 * fs/write_text_file), so the model sees unsaved buffers and writes land in them. Each side is
 * there only when the editor offered it; a tool without one reads or writes the disk.
 */
export interface FileAccess {
  /** Who supplies the text, for a result's metadata and the ledger: "the editor (ACP fs)". */
  via: string;
  /** The file's whole text as the editor holds it; throws when the editor cannot give it. */
  read?(absolute: string, signal: AbortSignal): Promise<string>;
  /** Replaces the file's whole text through the editor; throws when the editor did not take it. */
  write?(absolute: string, content: string, signal: AbortSignal): Promise<void>;
}

export interface BackgroundJob {
  id: string;
  command: string;
  done: boolean;
  exitCode?: number | null;
  output: string;
}

/** What reading a job gives: the output it wrote since the last read, and how it stands. */
export interface JobRead {
  job: BackgroundJob;
  /** Output written since the previous read (all of it, at the first). */
  text: string;
  /** Characters written since the previous read that are gone (only the last ~1 MB is kept). */
  lost: number;
}

/** A job an earlier run of the session started: it ended with that run. */
export interface EarlierJob {
  id: string;
  command: string;
}

export interface BackgroundJobs {
  start(command: string, cwd: string, confine?: Confinement): BackgroundJob;
  /** Jobs that finished since the last call: the loop tells the model about them in the next step. */
  takeFinished(): BackgroundJob[];
  /** Kills every running job (process groups), e.g. on cancel. */
  killAll(): void;
  /** This run's jobs, running and done, oldest first. */
  list(): BackgroundJob[];
  /** A job's new output and status; undefined for an id this run never started. */
  read(id: string): JobRead | undefined;
  /** Stops a running job (its whole process group); false if it is not running here. */
  kill(id: string): boolean;
  /** The session's jobs from earlier runs: new ids follow theirs, and reading one says it is gone. */
  carryOver(earlier: readonly EarlierJob[]): void;
  /** An earlier run's job by id, if there was one. */
  earlier(id: string): EarlierJob | undefined;
}

/** The folder a session's long outputs are saved in, under a cap (tools/saved-output.ts's OutputFolder). */
export interface SavedOutputs {
  /** This session's folder; made (owner-only) when something is first saved. */
  readonly path: string;
  /** Most bytes all saved outputs may take together (config storage.output_max_mb). */
  readonly maxBytes: number;
  /** Makes the folders if missing, owner-only. */
  prepare(): void;
  /** Makes room for `bytes` more under the cap (never deleting `keep`); returns how many may be written now. */
  makeRoom(bytes: number, keep?: string, wanted?: number): number;
}
