import { dirname } from "node:path";
import type { FlagValue } from "../config/load.js";
import { globalConfigFile } from "../config/paths.js";
import type { GoalSpec } from "../contracts/goal.js";
import type { QuestionPrompt } from "../contracts/question.js";
import type { FileAccess } from "../contracts/tools.js";
import { type CustomCommandSet, discoverCustomCommands } from "../input/custom-commands.js";
import type { ModeChoice } from "../permission/rules/modes.js";
import type { Runtime, SessionOptions } from "../runtime/open.js";
import { workspaceOf } from "../util/repo.js";

/** How the agent opens a session: the runtime's own opening, so the editor's sessions are the terminal's. */
export type OpenSession = (input: {
  cwd: string;
  options: SessionOptions;
  /** The editor's MCP servers, as the person's config for this session (mcp-servers.ts). */
  configFlags: readonly FlagValue[];
  /** Why the folder was not asked about, when a loaded session was started in another (seat session.cwd). */
  cwdUnasked?: string;
  /** Where the person chose the mode, when in the editor (session/set_mode). */
  modeChoice?: ModeChoice;
  /** Puts the person's questions to the editor, when it takes forms. */
  question?: QuestionPrompt;
  /** The file tools' text through the editor, when it offered fs (editor-files.ts). */
  access?: FileAccess;
  onLeaseLost: () => void;
  signal: AbortSignal;
}) => Promise<Runtime>;

/** A session the editor drives: its runtime (and lease), what it was opened with, its running turn. */
export interface Held {
  runtime: Runtime;
  cwd: string;
  options: SessionOptions;
  flags: readonly FlagValue[];
  modeChoice?: ModeChoice;
  /** The editor's buffers the session's file tools use (ACP fs), when it offered them: an ask's diff is of them too. */
  access?: FileAccess;
  turn?: { controller: AbortController; done: Promise<unknown> };
  /** The custom commands of its folder (the person's and the repository's), as the terminal finds them. */
  customs: CustomCommandSet;
  /** The goal /goal set: every turn goes on until its command exits 0 (seat turn.goal). */
  goal?: GoalSpec;
}

/**
 * The sessions of one editor connection, by id. Each is opened once through the runtime (with
 * the lease the terminal would hold) and let go when the editor disconnects.
 */
export class HeldSessions {
  private readonly held = new Map<string, Held>();
  /** Aborted when the connection ends: an opening in progress stops, and nothing new starts. */
  readonly closed = new AbortController();

  /**
   * How a session's questions reach the editor, set once it said it takes forms (initialize);
   * given the session's id, known once it is open.
   */
  questions: ((sessionId: () => string | undefined) => QuestionPrompt) | undefined;

  /** How a session's files are read and written through the editor, set once it offered fs (initialize). */
  files: ((sessionId: () => string | undefined) => FileAccess | undefined) | undefined;

  constructor(private readonly open: OpenSession) {}

  get(id: string): Held | undefined {
    return this.held.get(id);
  }

  /** Opens a session (new, or an earlier one by id) and holds it. */
  async hold(
    cwd: string,
    options: SessionOptions,
    flags: readonly FlagValue[],
    how: { cwdUnasked?: string; modeChoice?: ModeChoice } = {},
  ): Promise<Held> {
    let id: string | undefined;
    const access = this.files?.(() => id);
    const runtime = await this.open({
      cwd,
      options,
      configFlags: flags,
      ...how,
      ...(this.questions ? { question: this.questions(() => id) } : {}),
      ...withAccess(access),
      onLeaseLost: () =>
        (id ? this.held.get(id) : undefined)?.turn?.controller.abort(new Error("another run took over this session")),
      signal: this.closed.signal,
    });
    id = runtime.session.id;
    const held: Held = {
      runtime,
      cwd,
      options,
      flags,
      ...(how.modeChoice ? { modeChoice: how.modeChoice } : {}),
      ...withAccess(access),
      customs: discoverCustomCommands({ workspace: workspaceOf(cwd), globalDir: dirname(globalConfigFile()) }),
    };
    this.held.set(id, held);
    return held;
  }

  /**
   * The session opened again with other options (a mode the person chose): closed first, its
   * lease released. If it will not open so, it opens again as it was, and the error is thrown.
   */
  async reopen(held: Held, change: SessionOptions, modeChoice?: ModeChoice): Promise<Held> {
    const id = held.runtime.session.id;
    const base = { ...held.options, session: id, continue: false, fork: false };
    this.held.delete(id);
    await held.runtime.close();
    // The goal is the person's for this thread: it stays across a change of mode.
    const keep = (again: Held) => Object.assign(again, held.goal ? { goal: held.goal } : {});
    try {
      return keep(await this.hold(held.cwd, { ...base, ...change }, held.flags, modeChoice ? { modeChoice } : {}));
    } catch (error) {
      keep(await this.hold(held.cwd, base, held.flags, held.modeChoice ? { modeChoice: held.modeChoice } : {}));
      throw error;
    }
  }

  /** Stops every turn and lets every session go (its lease released). */
  async close(why: string): Promise<void> {
    this.closed.abort(new Error(why));
    for (const held of this.held.values()) {
      held.turn?.controller.abort(new Error(why));
      await held.turn?.done.catch(() => undefined);
      await held.runtime.close().catch(() => undefined);
    }
    this.held.clear();
  }
}

function withAccess(access: FileAccess | undefined): { access?: FileAccess } {
  return access ? { access } : {};
}
