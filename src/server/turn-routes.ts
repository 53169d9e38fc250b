import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { OpenAPIHono, z } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { BosunError } from "../errors.js";
import { STREAM_VERSION } from "../runtime/stream-event.js";
import { delegateFacts, sessionJson } from "../session/json.js";
import { leaseHolder } from "../store/lease.js";
import type { SessionStore } from "../store/session-store.js";
import type { LoggedEvent } from "./event-log.js";
import type { Held, Hub } from "./hub.js";
import {
  answerAsk,
  answerQuestion,
  cancelTurn,
  createSession,
  deleteSession,
  forkSession,
  listAsks,
  listQuestions,
  sendMessage,
  sessionEvents,
} from "./route-specs.js";
import type { Session } from "./schemas.js";

/*
 * The routes that drive a session: create one, send it a message (a turn), cancel, follow its
 * events (SSE, resumable with Last-Event-ID), and answer its asks. The answers are the person's,
 * through this server; the ledger says so.
 */

/** Seconds between keep-alive comments on an idle event stream (proxies drop silent ones). */
const KEEPALIVE_MS = 15_000;

type Deps = { store: SessionStore; hub: Hub };

export function turnRoutes(app: OpenAPIHono, deps: Deps): void {
  const held = heldBy(deps);
  sessionRoutes(app, deps);
  messageRoutes(app, deps, held);
  answerRoutes(app, deps);
  streamRoute(app, held);
}

/** The session held here, opened (resumed) now when it is not yet: 404 unknown, 409 held elsewhere. */
function heldBy({ store, hub }: Deps) {
  return async (id: string): Promise<Held | { status: 404 | 409; error: string }> => {
    const session = store.get(id.toUpperCase());
    if (!session) return { status: 404, error: "no such session" };
    const mine = hub.get(session.id);
    if (mine) return mine;
    try {
      return await hub.hold(session.directory, { session: session.id });
    } catch (error) {
      return { status: 409, error: oneLine(error) };
    }
  };
}

type HeldBy = ReturnType<typeof heldBy>;

function sessionRoutes(app: OpenAPIHono, { store, hub }: Deps): void {
  app.openapi(createSession, async (c) => {
    const request = c.req.valid("json");
    if (!isAbsolute(request.directory) || !isFolder(request.directory)) {
      return c.json({ error: `directory: ${request.directory} is not an absolute path of a folder` }, 400);
    }
    try {
      const { directory, ...options } = request;
      const opened = await hub.hold(directory, options);
      const session = opened.runtime.session;
      return c.json(sessionJson(session, delegateFacts(store, session)) as z.infer<typeof Session>, 201);
    } catch (error) {
      if (error instanceof BosunError) return c.json({ error: oneLine(error) }, 400);
      throw error;
    }
  });

  app.openapi(deleteSession, async (c) => {
    const session = store.get(c.req.valid("param").id.toUpperCase());
    if (!session) return c.json({ error: "no such session" }, 404);
    const mine = hub.get(session.id);
    if (mine && !(await hub.release(mine))) {
      return c.json({ error: "a turn is running in this session: cancel it first" }, 409);
    }
    mine?.events.push("deleted", {});
    const refused = store.atomically(() => {
      // A session a live run holds is not pulled from under it.
      const holder = leaseHolder(store, session.id);
      if (holder?.alive) return `in use by bosun pid ${holder.pid}`;
      store.delete(session.id);
      return undefined;
    });
    if (refused) return c.json({ error: `session ${session.id} is ${refused}; nothing deleted` }, 409);
    return c.json({ deleted: session.id }, 200);
  });

  app.openapi(forkSession, async (c) => {
    const session = store.get(c.req.valid("param").id.toUpperCase());
    if (!session) return c.json({ error: "no such session" }, 404);
    try {
      const forked = await hub.hold(session.directory, { session: session.id, fork: true });
      const copy = forked.runtime.session;
      return c.json(sessionJson(copy, delegateFacts(store, copy)) as z.infer<typeof Session>, 201);
    } catch (error) {
      return c.json({ error: oneLine(error) }, 409);
    }
  });
}

function messageRoutes(app: OpenAPIHono, { store, hub }: Deps, held: HeldBy): void {
  app.openapi(sendMessage, async (c) => {
    const found = await held(c.req.valid("param").id);
    if ("error" in found) return c.json({ error: found.error }, found.status);
    const { text, until } = c.req.valid("json");
    const sent = hub.send(found, text, until);
    if (!sent.started) return c.json({ error: sent.reason }, 409);
    return c.json({ started: true as const, after: sent.after }, 202);
  });

  app.openapi(cancelTurn, (c) => {
    const id = c.req.valid("param").id.toUpperCase();
    if (!store.get(id)) return c.json({ error: "no such session" }, 404);
    const mine = hub.get(id);
    return c.json({ cancelled: mine ? hub.cancel(mine) : false }, 200);
  });
}

function answerRoutes(app: OpenAPIHono, { store, hub }: Deps): void {
  app.openapi(listAsks, (c) => {
    const id = c.req.valid("param").id.toUpperCase();
    if (!store.get(id)) return c.json({ error: "no such session" }, 404);
    return c.json(hub.get(id)?.asks.list() ?? [], 200);
  });

  app.openapi(answerAsk, (c) => {
    const { id, ask } = c.req.valid("param");
    const mine = hub.get(id.toUpperCase());
    const answered = mine?.asks.answer(ask, c.req.valid("json"), clientOf(c));
    if (answered === "bad option") return c.json({ error: "option: not one of the ask's always options" }, 400);
    if (answered !== "answered") return c.json({ error: "no such ask waiting" }, 404);
    return c.json({ answered: true as const }, 200);
  });

  app.openapi(listQuestions, (c) => {
    const id = c.req.valid("param").id.toUpperCase();
    if (!store.get(id)) return c.json({ error: "no such session" }, 404);
    return c.json((hub.get(id)?.asks.listQuestions() ?? []) as unknown as Record<string, unknown>[], 200);
  });

  app.openapi(answerQuestion, (c) => {
    const { id, question } = c.req.valid("param");
    const answered = hub.get(id.toUpperCase())?.asks.answerQuestion(question, c.req.valid("json"), clientOf(c));
    if (!answered) return c.json({ error: "no such question waiting" }, 404);
    return c.json({ answered: true as const }, 200);
  });
}

function streamRoute(app: OpenAPIHono, held: HeldBy): void {
  app.openapi(sessionEvents, async (c) => {
    const found = await held(c.req.valid("param").id);
    if ("error" in found) return c.json({ error: found.error }, found.status);
    const session = found.runtime.session.id;
    // Resumes after an id this stream gave; anything else (not a plain id, or past the last) from the start.
    const after = resumeAfter(c.req.header("last-event-id"), found.events.lastId);
    return streamSSE(c, async (stream) => {
      const send = (event: LoggedEvent) =>
        stream.writeSSE({
          id: String(event.id),
          event: event.type,
          data: JSON.stringify({ v: STREAM_VERSION, seq: event.id, type: event.type, session, ...event.data }),
        });
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
        stream.onAbort(resolve);
      });
      // Subscribed before the backlog is sent, so nothing falls between the two; ids dedupe.
      let sent = after;
      const queue: LoggedEvent[] = [];
      let draining = Promise.resolve();
      const enqueue = (event: LoggedEvent) => {
        queue.push(event);
        draining = draining.then(async () => {
          for (;;) {
            const next = queue.shift();
            if (!next) return;
            if (next.id <= sent) continue;
            sent = next.id;
            await send(next);
            // A deleted session says so last; its stream ends with it.
            if (next.type === "deleted") finish();
          }
        });
      };
      const unsubscribe = found.events.subscribe(enqueue);
      // Watched again: not let go while someone is here.
      clearTimeout(found.idle);
      const { events, gap } = found.events.since(sent);
      if (gap)
        await stream.writeSSE({
          event: "gap",
          // Its seq: the last event dropped, so the stream's ids still only grow.
          data: JSON.stringify({ v: STREAM_VERSION, seq: found.events.firstKept - 1, type: "gap", session }),
        });
      for (const event of events) enqueue(event);
      const keepalive = setInterval(() => {
        void stream.write(": keep-alive\n\n");
      }, KEEPALIVE_MS);
      await finished;
      clearInterval(keepalive);
      unsubscribe();
    });
  });
}

/** The event a stream resumes after: a plain decimal id it could have given (at most the last), else 0. */
export function resumeAfter(header: string | undefined, lastId: number): number {
  if (header === undefined || !/^\d{1,15}$/.test(header.trim())) return 0;
  const id = Number(header.trim());
  return id <= lastId ? id : 0;
}

/** The client's address, as the connection has it (@hono/node-server puts the request's socket in env). */
function clientOf(c: { env: unknown }): string | undefined {
  const socket = (c.env as { incoming?: { socket?: { remoteAddress?: string; remotePort?: number } } })?.incoming
    ?.socket;
  return socket?.remoteAddress;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "error";
}
