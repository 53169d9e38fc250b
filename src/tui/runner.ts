import type { CustomCommand, Expansion } from "../input/custom-commands.js";
import type { ParsedInput } from "../input/slash.js";
import type { PendingMessage } from "../input/steer.js";
import type { RunEvent, TurnOutcome } from "../loop/turn.js";
import type { ApprovalPrompt } from "../permission/gate/approval.js";
import type { RevertResult } from "../runtime/revert.js";
import type { Status } from "./status-line.js";
import type { TranscriptItem } from "./transcript.js";

/**
 * What the TUI needs of a live session: one turn at a time, the person's own shell commands,
 * the ledger, and compaction. The real one drives the same loop as `bosun run`; tests bring
 * their own.
 */
export interface InteractiveRunner {
  /** Settles when the session is open (the prompt is drawn before that); rejects when it cannot open. */
  ready?: Promise<void>;
  status(): Status;
  /** Records what became of a message typed while the agent worked (seat `input.steer`). */
  noteSteer?(message: PendingMessage, answer: "steer" | "queue" | "drop", cause?: "enter" | "exit"): Promise<void>;
  /** Records what a typed line was (seat `input.command`); a `!cmd` is recorded by `bang`, with its exit code. */
  noteInput?(parsed: ParsedInput, expansion?: Expansion): Promise<void>;
  /**
   * Runs a turn for `text`; events stream to `emit`; approvals go to `prompt`. `from.command`:
   * the custom command it was expanded from, whose front matter may choose the agent or model;
   * `from.typed`: what the person typed, whose `@path`s attach files (never a template's text or
   * a span's output). Without `from`, `text` is what the person typed.
   */
  turn(
    text: string,
    io: {
      emit: (event: RunEvent) => void;
      prompt: ApprovalPrompt;
      signal: AbortSignal;
      /** The messages the person chose to steer with, taken (and removed from the queue) at a step boundary. */
      steering: () => string[];
    },
    from?: { command?: CustomCommand; typed?: string },
  ): Promise<TurnOutcome>;
  /**
   * /recipe [<name|file> [k=v ...]]: without a name, the recipes found; with one, its message and
   * the turn that runs it with the recipe's settings and checks (for that turn alone), or why not.
   */
  recipe?(args: string): Promise<
    | { kind: "text"; text: string }
    | {
        kind: "turn";
        text: string;
        notice?: string;
        run: (io: Parameters<InteractiveRunner["turn"]>[1]) => Promise<TurnOutcome>;
      }
  >;
  /** The connected MCP servers' prompts as commands (`/mcp:<server>:<prompt>`), once the session is open. */
  mcpCommands?(): CustomCommand[];
  /** What /model, /agent or /mode without an argument offers to switch to; the one in use marked. */
  choices?(kind: "model" | "agent" | "mode"): Choice[];
  /** The session's tokens so far (every request's input and output), for the count while the agent works. */
  tokens?(): number;
  /**
   * What must be set up before any turn can run (no model is configured): the session stays
   * open to say so. Undefined once a session is open.
   */
  setup?(): string | undefined;
  /**
   * The conversation so far of the session open now (src/tui/past.ts), once per session: after
   * the first opens (`-c`, `-s`, a fork) and after /resume switches to another. Undefined when
   * there is nothing to show: a new session, or the same one reopened (/model, /mode).
   */
  takePast?(): Past | undefined;
  /** This directory's recent sessions, newest first, for the resume picker. */
  sessions?(): SessionEntry[];
  /** `!cmd`: runs as the person (recorded) and is added to the conversation for the next turn. */
  bang(command: string, signal?: AbortSignal): Promise<{ output: string; exitCode: number | null }>;
  /** `/mcp [reconnect <name>]`: how the MCP servers stand, or one started again; a block of lines. */
  mcp?(args: string): Promise<string>;
  /** A `/mcp reconnect <name>` refused while a turn runs: put on record (seat mcp.connect), never lost. */
  mcpRefused?(server: string, problem: string): void;
  /** /cost: the session's tokens (in, cached, out, requests) and cost so far. */
  cost?(): string;
  /**
   * `/why [--all] [seat glob]`: the ledger as `bosun why` prints it, fitted to `view.width`
   * (the terminal's), coloured when `view.color`.
   */
  why(args: string | undefined, view: { width: number; color: boolean }): string | Promise<string>;
  /**
   * The session-level slash commands (/model, /agent, /mode, /new, /sessions, /resume): a line
   * saying what happened; the session may be reopened with the change.
   */
  command?(name: string, args: string): Promise<string>;
  /**
   * /undo, /redo, /rewind (seat session.revert): files and conversation back to before a turn,
   * or forward again; refused while a turn runs, and with the files changed by hand listed.
   */
  revert?(action: "undo" | "redo" | "rewind", options: { to?: number; force: boolean }): Promise<RevertResult>;
  /**
   * /review: the configured checks and a read-only reviewer over the diff, in a review session of
   * their own; the report as text. Absent where the session is not local (attach).
   */
  review?(args: string, signal: AbortSignal): Promise<string>;
  /** The session's turns for /rewind: number, the person's message, whether undone. */
  turns?(): Array<{ turn: number; text: string; reverted: boolean }>;
  /** Summarises the older history now; a line saying what happened. */
  compact(): Promise<string>;
  close(): Promise<void>;
}

/** One line of a picker: the value a switch takes, what it is, and whether it is in use. */
export interface Choice {
  value: string;
  detail?: string;
  current?: boolean;
}

export interface SessionEntry {
  id: string;
  title: string;
  /** Last activity, milliseconds since the epoch. */
  updated: number;
  /** The session open now. */
  current: boolean;
}

/** A resumed session's past, drawn before what follows it. */
export interface Past {
  id: string;
  title: string;
  /** The session it was forked from, for a fork. */
  forkedFrom?: string;
  items: TranscriptItem[];
}
