import type { RecordedDecision } from "../contracts/decisions.js";
import type { QuestionPrompt } from "../contracts/question.js";
import type { RunEvent, TurnOutcome } from "../loop/turn.js";
import type { Runtime, SessionOptions } from "../runtime/open.js";
import { doneFields, exitCodeOf, streamShape } from "../runtime/stream-event.js";
import { Asks } from "./asks.js";
import { EventLog } from "./event-log.js";

/** How the server opens a session: the runtime's own opening, so the server's sessions are the terminal's. */
export type OpenSession = (input: {
  cwd: string;
  options: SessionOptions;
  /** Where the session's questions go (the question tool, MCP servers' forms): its clients. */
  question: QuestionPrompt;
  onDecision: (decision: RecordedDecision) => void;
  warn: (text: string) => void;
  onLeaseLost: () => void;
  signal: AbortSignal;
}) => Promise<Runtime>;

/** A session this server holds: its runtime (and lease), its event stream, its asks, its turn. */
export interface Held {
  runtime: Runtime;
  events: EventLog;
  asks: Asks;
  turn?: { controller: AbortController; done: Promise<TurnOutcome | undefined> };
  closed: AbortController;
  /** Worked in through this server (created here, or a turn ran): kept a while when idle, for clients to come back. */
  used: boolean;
  /** Lets it go once idle for IDLE_RELEASE_MS. */
  idle?: NodeJS.Timeout;
}

/**
 * How long a session worked in through the server stays held with no turn and nobody watching,
 * so a client that reconnects finds its events; one opened only to be watched is let go at once.
 * Held, the terminal cannot take it (its lease).
 */
export const IDLE_RELEASE_MS = 5 * 60_000;

/** `after`: the last event before the turn's first, so a client tells this turn's events from earlier ones. */
export type SendAnswer = { started: true; after: number } | { started: false; reason: string };

/**
 * The sessions the server holds. Each is opened once through the runtime (so it has the lease
 * the terminal would) and kept until the server stops; a session's turns run one at a time, as
 * at the terminal. Events go to the session's log (the same shapes as `--format json`).
 */
export class Hub {
  private readonly held = new Map<string, Held>();
  private readonly opening = new Map<string, Promise<Held>>();

  constructor(
    private readonly open: OpenSession,
    /** The surface answers come through, for the record: "the server (bosun serve)". */
    private readonly via: string,
    /** bosun's version, for each session event (as `--format json` says it). */
    private readonly version = "",
  ) {}

  get(id: string): Held | undefined {
    return this.held.get(id);
  }

  /** Opens a session (new, or an existing one by id) and holds it; the opening's decisions start its stream. */
  hold(cwd: string, options: SessionOptions): Promise<Held> {
    // Two requests resuming the same session at once open it once: the second waits for the first.
    const key = options.session && !options.fork ? options.session : undefined;
    const inFlight = key ? this.opening.get(key) : undefined;
    if (inFlight) return inFlight;
    const opened = this.openHeld(cwd, options);
    if (key) {
      this.opening.set(key, opened);
      const forget = () => this.opening.delete(key);
      opened.then(forget, forget);
    }
    return opened;
  }

  private async openHeld(cwd: string, options: SessionOptions): Promise<Held> {
    const events = new EventLog();
    const asks = new Asks(
      this.via,
      (view) => events.push("ask", { ...view }),
      undefined,
      (view) => events.push("question", { ...view }),
    );
    // The last client watching leaves while asks wait: nobody can answer them now; and a session
    // nobody uses any more is let go (its lease with it).
    let self: Held | undefined;
    events.onEmpty = () => {
      asks.denyAll("the client watching this session disconnected");
      if (self) this.releaseWhenIdle(self);
    };
    const closed = new AbortController();
    // The opening's decisions wait for the session event, which always comes first (as in --format json).
    let early: Shaped[] | undefined = [];
    const emit = (shaped: Shaped | undefined) => {
      if (!shaped) return;
      if (early) early.push(shaped);
      else events.push(shaped.type, shaped.fields);
    };
    const runtime = await this.open({
      cwd,
      options,
      question: asks.question,
      onDecision: (decision) => emit(streamShape({ type: "decision", decision })),
      // A warning of the opening (a server that failed to start) is an event of its own.
      warn: (text) => emit({ type: "warning", fields: { message: text } }),
      onLeaseLost: () =>
        this.held.get(runtime.session.id)?.turn?.controller.abort(new Error("another run took over this session")),
      signal: closed.signal,
    });
    // A session the server created is worked in here; one it resumed is, once a turn runs.
    const held: Held = { runtime, events, asks, closed, used: options.session === undefined || options.fork === true };
    self = held;
    const existing = this.held.get(runtime.session.id);
    if (existing) {
      await runtime.close();
      return existing;
    }
    this.held.set(runtime.session.id, held);
    events.push("session", {
      session: runtime.session.id,
      opened: runtime.opened.mode,
      parent: runtime.opened.parent ?? null,
      model: runtime.model.ref,
      agent: runtime.agent,
      mode: runtime.mode,
      cwd,
      tools: runtime.offeredTools(),
      maxSteps: runtime.maxSteps,
      version: this.version,
      // Said on every session that runs so: nobody is asked about anything in it.
      ...(runtime.mode === "auto"
        ? { warning: "mode auto: every call that would ask is allowed, nobody is asked" }
        : {}),
    });
    const opening = early;
    early = undefined;
    for (const shaped of opening) events.push(shaped.type, shaped.fields);
    return held;
  }

  /** Starts a turn with `text`; refused while one runs, as the terminal refuses a second run. */
  send(held: Held, text: string, until?: readonly string[]): SendAnswer {
    if (held.turn)
      return { started: false, reason: "a turn is running in this session: wait for its done event, or cancel it" };
    const controller = new AbortController();
    const after = held.events.lastId;
    held.used = true;
    clearTimeout(held.idle);
    const began = Date.now();
    const done = held.runtime
      .turn(
        { text },
        {
          emit: (event) => push(held.events, event),
          signal: controller.signal,
          prompt: held.asks.prompt,
          // The message's own goal, for this turn only (as --until is for a run's).
          ...(until ? { goal: { source: { kind: "person", surface: "server" }, commands: [...until] } } : {}),
        },
      )
      .then(
        (outcome) => {
          const end = { exitCode: exitCodeOf(outcome), durationMs: Date.now() - began, usage: held.runtime.usage() };
          held.events.push("done", doneFields(outcome, end));
          return outcome;
        },
        (error: unknown) => {
          const message = (error instanceof Error ? error.message.split("\n")[0] : String(error)) || "error";
          held.events.push("error", { message });
          held.events.push("done", { status: "error", exitCode: 1, message, durationMs: Date.now() - began });
          return undefined;
        },
      )
      .finally(() => {
        held.turn = undefined;
        this.releaseWhenIdle(held);
      });
    held.turn = { controller, done };
    return { started: true, after };
  }

  /** Cancels the running turn, if there is one. */
  cancel(held: Held): boolean {
    if (!held.turn) return false;
    held.turn.controller.abort(new Error("cancelled through the server"));
    return true;
  }

  /**
   * Lets a session go once nobody uses it: no turn and nobody watching — at once when it was only
   * watched, after IDLE_RELEASE_MS when it was worked in (a client may come back for its events).
   */
  private releaseWhenIdle(held: Held): void {
    clearTimeout(held.idle);
    const idle = () => !held.turn && held.events.watchers === 0 && this.held.get(held.runtime.session.id) === held;
    if (!idle()) return;
    if (!held.used) {
      void this.release(held);
      return;
    }
    held.idle = setTimeout(() => {
      if (idle()) void this.release(held);
    }, IDLE_RELEASE_MS);
    held.idle.unref();
  }

  /** Lets one idle session go (its lease released); false while a turn runs in it. */
  async release(held: Held): Promise<boolean> {
    if (held.turn) return false;
    clearTimeout(held.idle);
    this.held.delete(held.runtime.session.id);
    held.asks.denyAll("the session was let go");
    held.closed.abort();
    await held.runtime.close().catch(() => undefined);
    return true;
  }

  /** Stops every turn and lets every session go (its lease released). */
  async close(): Promise<void> {
    for (const held of this.held.values()) {
      clearTimeout(held.idle);
      held.turn?.controller.abort(new Error("the server is stopping"));
      // A turn told to stop ends at once; one that does not is not waited for past the bound.
      await bounded(held.turn?.done, CLOSE_WAIT_MS);
      held.closed.abort();
      await bounded(
        held.runtime.close().catch(() => undefined),
        CLOSE_WAIT_MS,
      );
    }
    this.held.clear();
  }
}

/** How long stopping waits for one session's turn, and then for its closing. */
const CLOSE_WAIT_MS = 10_000;

async function bounded(work: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

type Shaped = NonNullable<ReturnType<typeof streamShape>>;

function push(events: EventLog, event: RunEvent): void {
  const shaped = streamShape(event);
  if (shaped) events.push(shaped.type, shaped.fields);
}
