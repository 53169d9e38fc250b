import { NoModelError, noModelAdvice } from "../model/select.js";
import type { Runtime, SessionOptions } from "../runtime/open.js";

/** What a reopen came to: the line the person reads, and whether the change took. */
export interface Reopened {
  ok: boolean;
  line: string;
}

/**
 * The one live session of an interactive run: open, opening (again, on a switch), or blocked
 * because no model is configured. It keeps what the session was opened with, so a change keeps
 * every other choice, and notices when another session than the one before opens, so its past is
 * drawn once.
 */
export class SessionSlot {
  /**
   * The session open now; undefined while it opens (or opens again, on a switch), when only
   * `opened` may be waited on. Nothing reads a session that is being closed.
   */
  live: Runtime | undefined;
  private opened: Promise<Runtime>;
  /**
   * What the live session was opened with: a change keeps every other choice (an /agent plan
   * stays plan through a /model switch).
   */
  current: SessionOptions;
  /** The id of the session open now, or last open: a switch reopens it. */
  private sessionId: string | undefined;
  /** Set when another session opens: its past is still to be drawn (takePastDue). */
  private pastDue = false;
  /**
   * No model configured: the session stays unopened and the app says what to set up; /model
   * with a model of a provider set up meanwhile (a local server in bosun.json) opens it.
   */
  private blocked: string | undefined;
  /** Settles when the first session is open, or known to be blocked. */
  readonly ready: Promise<void>;

  constructor(
    first: Promise<Runtime>,
    options: SessionOptions,
    private readonly openWith: (options: SessionOptions) => Promise<Runtime>,
  ) {
    this.opened = first;
    this.current = options;
    this.ready = this.track(first).catch((error: unknown) => {
      if (!(error instanceof NoModelError)) throw error;
      this.blocked = noModelAdvice("tui");
    });
  }

  /** What to set up before anything can run: set while no model is configured and nothing is open. */
  get blockedNow(): string | undefined {
    return this.live ? undefined : this.blocked;
  }

  /** The live session, once it is open. */
  open(): Promise<Runtime> {
    return this.opened;
  }

  /** Whether another session's past is still to be drawn; true once per session opened. */
  takePastDue(): boolean {
    if (!this.live || !this.pastDue) return false;
    this.pastDue = false;
    return true;
  }

  /** The options that reopen the live session itself, with a change. */
  here(change: SessionOptions = {}): SessionOptions {
    const { command: _, ...kept } = this.current;
    return { ...kept, session: this.sessionId, continue: false, fork: false, ...change };
  }

  /**
   * The session opened again with a change: the old one is closed first (its lease released).
   * If the change cannot be opened, the session as it was is opened again.
   */
  async reopen(chosen: SessionOptions): Promise<Reopened> {
    const before = await this.open();
    const back = this.here();
    this.live = undefined;
    let result: Reopened = { ok: false, line: "" };
    await this.track(
      (async () => {
        await before.close();
        try {
          const session = await this.openWith(chosen);
          // A command's turn-only choice is not the session's from then on.
          if (!chosen.command) this.current = chosen;
          result = { ok: true, line: sessionLine(session) };
          return session;
        } catch (error) {
          result = { ok: false, line: `not changed: ${(error as Error).message}` };
          return this.openWith(back);
        }
      })(),
    );
    return result;
  }

  /** While blocked: a model named now (a provider set up meanwhile) opens the session. */
  async openWithModel(model: string): Promise<string> {
    const chosen = { ...this.current, model };
    let session: Runtime;
    try {
      session = await this.openWith(chosen);
    } catch (error) {
      return `not opened: ${(error as Error).message}`;
    }
    await this.track(Promise.resolve(session));
    this.current = chosen;
    this.blocked = undefined;
    return sessionLine(session);
  }

  private track(opening: Promise<Runtime>): Promise<void> {
    this.opened = opening;
    return opening.then((session) => {
      this.live = session;
      // Another session than the one before: its past is for the transcript; a reopen of the same is not.
      if (session.session.id !== this.sessionId) this.pastDue = true;
      this.sessionId = session.session.id;
    });
  }
}

function sessionLine(session: Runtime): string {
  return `session ${session.session.id.slice(0, 10)} · ${session.model.ref} · ${session.agent} · ${session.mode}`;
}
