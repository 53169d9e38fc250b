import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { BosunError } from "../errors.js";
import { STREAM_VERSION } from "../runtime/stream-event.js";
import { delegateFacts, sessionJson } from "../session/json.js";
import type { SessionStore } from "../store/session-store.js";
import type { Held, Hub } from "./hub.js";
import { ErrorBody, json, Session, SessionId, unauthorized } from "./schemas.js";

/*
 * The routes that drive a session: create one, send it a message (a turn), cancel, follow its
 * events (SSE, resumable with Last-Event-ID), and answer its asks. The answers are the person's,
 * through this server; the ledger says so.
 */

const MODES = ["approve", "smart", "auto", "chat"] as const;

const NewSession = z
  .object({
    directory: z.string().min(1).openapi({ description: "the folder to work in (absolute; it must exist)" }),
    agent: z.string().min(1).optional(),
    model: z.string().min(1).optional().openapi({ description: "provider/model" }),
    mode: z.enum(MODES).optional(),
    title: z.string().min(1).max(200).optional(),
  })
  .openapi("NewSession");

const Message = z.object({ text: z.string().min(1).max(1_000_000) }).openapi("Message");

const AskAnswer = z
  .discriminatedUnion("reply", [
    z.object({ reply: z.literal("once") }),
    z.object({ reply: z.literal("always"), option: z.number().int().min(0).optional() }),
    z.object({ reply: z.literal("deny"), message: z.string().max(10_000).optional() }),
  ])
  .openapi("AskAnswer");

const QuestionAnswer = z
  .discriminatedUnion("action", [
    z.object({
      action: z.literal("accept"),
      values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])),
    }),
    z.object({ action: z.literal("decline") }),
  ])
  .openapi("QuestionAnswer");

const QuestionParams = SessionId.extend({
  question: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "question", in: "path" } }),
});

const AskParams = SessionId.extend({
  ask: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "ask", in: "path" } }),
});

const conflict = json(ErrorBody, "the session is busy, or held by another run");
const notFound = json(ErrorBody, "no such session (or ask)");
const badRequest = json(ErrorBody, "the body or a parameter is not valid; the error names it");
const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

const createSession = createRoute({
  method: "post",
  path: "/sessions",
  summary: "Open a new session in a folder (it is held by this server until it stops)",
  request: body(NewSession),
  responses: { 201: json(Session, "the session"), 400: badRequest, 401: unauthorized },
});

const sendMessage = createRoute({
  method: "post",
  path: "/sessions/{id}/messages",
  summary: "Send a message: starts a turn; its events follow on the session's event stream",
  request: { params: SessionId, ...body(Message) },
  responses: {
    202: json(z.object({ started: z.literal(true) }), "the turn started"),
    400: badRequest,
    401: unauthorized,
    404: notFound,
    409: conflict,
  },
});

const cancelTurn = createRoute({
  method: "post",
  path: "/sessions/{id}/cancel",
  summary: "Cancel the running turn",
  request: { params: SessionId },
  responses: {
    200: json(z.object({ cancelled: z.boolean() }), "whether a turn was running"),
    400: badRequest,
    401: unauthorized,
    404: notFound,
  },
});

const sessionEvents = createRoute({
  method: "get",
  path: "/sessions/{id}/events",
  summary:
    "The session's events as Server-Sent Events, each `data` one object of `bosun run --format json`'s stream (its seq the event id); Last-Event-ID resumes",
  request: { params: SessionId },
  responses: {
    200: { content: { "text/event-stream": { schema: z.string() } }, description: "the event stream" },
    400: badRequest,
    401: unauthorized,
    404: notFound,
  },
});

const listAsks = createRoute({
  method: "get",
  path: "/sessions/{id}/asks",
  summary: "The calls waiting for an answer",
  request: { params: SessionId },
  responses: {
    200: json(z.array(z.record(z.string(), z.unknown())), "the pending asks"),
    400: badRequest,
    401: unauthorized,
    404: notFound,
  },
});

const answerAsk = createRoute({
  method: "post",
  path: "/sessions/{id}/asks/{ask}",
  summary: "Answer an ask: allow once, always (an offered option), or deny (with a message for the model)",
  request: { params: AskParams, ...body(AskAnswer) },
  responses: {
    200: json(z.object({ answered: z.literal(true) }), "answered"),
    400: badRequest,
    401: unauthorized,
    404: notFound,
  },
});

const listQuestions = createRoute({
  method: "get",
  path: "/sessions/{id}/questions",
  summary: "The questions waiting for the person (the question tool, an MCP server's form)",
  request: { params: SessionId },
  responses: {
    200: json(z.array(z.record(z.string(), z.unknown())), "the pending questions"),
    400: badRequest,
    401: unauthorized,
    404: notFound,
  },
});

const answerQuestion = createRoute({
  method: "post",
  path: "/sessions/{id}/questions/{question}",
  summary: "Answer a question with values for its fields (checked by whoever asked), or decline it",
  request: { params: QuestionParams, ...body(QuestionAnswer) },
  responses: {
    200: json(z.object({ answered: z.literal(true) }), "answered"),
    400: badRequest,
    401: unauthorized,
    404: notFound,
  },
});

/** Seconds between keep-alive comments on an idle event stream (proxies drop silent ones). */
const KEEPALIVE_MS = 15_000;

export function turnRoutes(app: OpenAPIHono, deps: { store: SessionStore; hub: Hub }): void {
  const { store, hub } = deps;
  /** The session held here, opened (resumed) now when it is not yet: 404 unknown, 409 held elsewhere. */
  const held = async (id: string): Promise<Held | { status: 404 | 409; error: string }> => {
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

  app.openapi(sendMessage, async (c) => {
    const found = await held(c.req.valid("param").id);
    if ("error" in found) return c.json({ error: found.error }, found.status);
    const sent = hub.send(found, c.req.valid("json").text);
    if (!sent.started) return c.json({ error: sent.reason }, 409);
    return c.json({ started: true as const }, 202);
  });

  app.openapi(cancelTurn, (c) => {
    const id = c.req.valid("param").id.toUpperCase();
    if (!store.get(id)) return c.json({ error: "no such session" }, 404);
    const mine = hub.get(id);
    return c.json({ cancelled: mine ? hub.cancel(mine) : false }, 200);
  });

  app.openapi(listAsks, (c) => {
    const id = c.req.valid("param").id.toUpperCase();
    if (!store.get(id)) return c.json({ error: "no such session" }, 404);
    return c.json(hub.get(id)?.asks.list() ?? [], 200);
  });

  app.openapi(answerAsk, (c) => {
    const { id, ask } = c.req.valid("param");
    const mine = hub.get(id.toUpperCase());
    const answered = mine?.asks.answer(ask, c.req.valid("json"));
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
    const answered = hub.get(id.toUpperCase())?.asks.answerQuestion(question, c.req.valid("json"));
    if (!answered) return c.json({ error: "no such question waiting" }, 404);
    return c.json({ answered: true as const }, 200);
  });

  app.openapi(sessionEvents, async (c) => {
    const found = await held(c.req.valid("param").id);
    if ("error" in found) return c.json({ error: found.error }, found.status === 409 ? 404 : found.status);
    const after = Number(c.req.header("last-event-id") ?? 0);
    const session = found.runtime.session.id;
    return streamSSE(c, async (stream) => {
      const send = (event: { id: number; type: string; data: Record<string, unknown> }) =>
        stream.writeSSE({
          id: String(event.id),
          event: event.type,
          data: JSON.stringify({ v: STREAM_VERSION, seq: event.id, type: event.type, session, ...event.data }),
        });
      // Subscribed before the backlog is sent, so nothing falls between the two; ids dedupe.
      let sent = Number.isInteger(after) && after > 0 ? after : 0;
      const queue: Array<{ id: number; type: string; data: Record<string, unknown> }> = [];
      let draining = Promise.resolve();
      const enqueue = (event: (typeof queue)[number]) => {
        queue.push(event);
        draining = draining.then(async () => {
          for (;;) {
            const next = queue.shift();
            if (!next) return;
            if (next.id <= sent) continue;
            sent = next.id;
            await send(next);
          }
        });
      };
      const unsubscribe = found.events.subscribe(enqueue);
      const { events, gap } = found.events.since(sent);
      if (gap)
        await stream.writeSSE({
          event: "gap",
          data: JSON.stringify({ v: STREAM_VERSION, type: "gap", session, after: sent }),
        });
      for (const event of events) enqueue(event);
      const keepalive = setInterval(() => {
        void stream.write(": keep-alive\n\n");
      }, KEEPALIVE_MS);
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      clearInterval(keepalive);
      unsubscribe();
    });
  });
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
