import { createRoute, z } from "@hono/zod-openapi";
import type { ModeName } from "../contracts/modes.js";
import { MODES as MODE_TABLE } from "../permission/rules/modes.js";
import { hasControls } from "../util/printable.js";
import { ErrorBody, json, Session, SessionId, unauthorized } from "./schemas.js";

/** The routes that drive a session, as OpenAPI describes them: what each takes and gives. */

/** The permission modes a client may name, in the order the README and errors list them. */
const MODES = Object.keys(MODE_TABLE) as [ModeName, ...ModeName[]];

export const NewSession = z
  .object({
    directory: z.string().min(1).openapi({ description: "the folder to work in (absolute; it must exist)" }),
    agent: z.string().min(1).optional(),
    model: z.string().min(1).optional().openapi({ description: "provider/model" }),
    mode: z.enum(MODES).optional(),
    title: z
      .string()
      .min(1)
      .max(200)
      .refine((title) => !hasControls(title), "no control characters (escapes, newlines)")
      .optional(),
  })
  .openapi("NewSession");

export const Message = z
  .object({
    text: z.string().min(1).max(1_000_000),
    until: z.array(z.string().trim().min(1).max(10_000)).min(1).max(20).optional().openapi({
      description:
        "shell commands that must exit 0 before the turn is done, as `bosun run --until` (seat turn.goal, within the goal.* budgets)",
    }),
  })
  .openapi("Message");

export const AskAnswer = z
  .discriminatedUnion("reply", [
    z.object({ reply: z.literal("once") }),
    z.object({ reply: z.literal("always"), option: z.number().int().min(0).optional() }),
    z.object({ reply: z.literal("deny"), message: z.string().max(10_000).optional() }),
  ])
  .openapi("AskAnswer");

export const QuestionAnswer = z
  .discriminatedUnion("action", [
    z.object({
      action: z.literal("accept"),
      values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])),
    }),
    z.object({ action: z.literal("decline") }),
  ])
  .openapi("QuestionAnswer");

export const QuestionParams = SessionId.extend({
  question: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "question", in: "path" } }),
});

export const AskParams = SessionId.extend({
  ask: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: "ask", in: "path" } }),
});

export const conflict = json(ErrorBody, "the session is busy, or held by another run");
export const notFound = json(ErrorBody, "no such session (or ask)");
export const badRequest = json(ErrorBody, "the body or a parameter is not valid; the error names it");
export const body = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});

export const createSession = createRoute({
  method: "post",
  path: "/sessions",
  summary: "Open a new session in a folder (it is held by this server until it stops)",
  request: body(NewSession),
  responses: { 201: json(Session, "the session"), 400: badRequest, 401: unauthorized },
});

export const sendMessage = createRoute({
  method: "post",
  path: "/sessions/{id}/messages",
  summary: "Send a message: starts a turn; its events follow on the session's event stream",
  request: { params: SessionId, ...body(Message) },
  responses: {
    202: json(
      z.object({
        started: z.literal(true),
        after: z.number().int().openapi({ description: "the last event id before this turn's first" }),
      }),
      "the turn started",
    ),
    400: badRequest,
    401: unauthorized,
    404: notFound,
    409: conflict,
  },
});

export const cancelTurn = createRoute({
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

export const sessionEvents = createRoute({
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

export const listAsks = createRoute({
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

export const answerAsk = createRoute({
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

export const listQuestions = createRoute({
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

export const answerQuestion = createRoute({
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

export const deleteSession = createRoute({
  method: "delete",
  path: "/sessions/{id}",
  summary: "Delete a session and its log (not while a turn runs in it, or another run holds it)",
  request: { params: SessionId },
  responses: {
    200: json(z.object({ deleted: z.string() }), "deleted"),
    400: badRequest,
    401: unauthorized,
    404: notFound,
    409: conflict,
  },
});

export const forkSession = createRoute({
  method: "post",
  path: "/sessions/{id}/fork",
  summary: "A new session that starts as a copy of this one (held by this server)",
  request: { params: SessionId },
  responses: {
    201: json(Session, "the new session"),
    400: badRequest,
    401: unauthorized,
    404: notFound,
    409: conflict,
  },
});
